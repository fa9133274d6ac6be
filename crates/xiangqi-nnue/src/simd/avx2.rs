//! AVX2: 16 i16 lanes per register.

use std::arch::x86_64::*;

use crate::network::QA;

const LANES: usize = 16;

/// See [`super::Simd::update`]. Each 16-lane block of `src` is loaded once,
/// every row added and removed in a register, and stored once.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn update(dst: &mut [i16], src: &[i16], added: &[&[i16]], removed: &[&[i16]]) {
    for block in (0..dst.len()).step_by(LANES) {
        let mut v = _mm256_loadu_si256(src.as_ptr().add(block).cast());
        for row in added {
            v = _mm256_add_epi16(v, _mm256_loadu_si256(row.as_ptr().add(block).cast()));
        }
        for row in removed {
            v = _mm256_sub_epi16(v, _mm256_loadu_si256(row.as_ptr().add(block).cast()));
        }
        _mm256_storeu_si256(dst.as_mut_ptr().add(block).cast(), v);
    }
}

/// See [`super::Simd::screlu_dot`]. `c * w` is formed in full 32 bits from
/// its low and high halves, multiplied by `c` again (`c² * w` fits an i32),
/// and the products are widened to i64 before they are added.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
    let zero = _mm256_setzero_si256();
    let ceiling = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for block in (0..acc.len()).step_by(LANES) {
        let a = _mm256_loadu_si256(acc.as_ptr().add(block).cast());
        let w = _mm256_loadu_si256(weights.as_ptr().add(block).cast());
        let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), ceiling);
        let lo = _mm256_mullo_epi16(c, w);
        let hi = _mm256_mulhi_epi16(c, w);
        // The same interleaving for the products and for `c` keeps lanes paired.
        let cw_a = _mm256_unpacklo_epi16(lo, hi);
        let cw_b = _mm256_unpackhi_epi16(lo, hi);
        let c_a = _mm256_unpacklo_epi16(c, zero);
        let c_b = _mm256_unpackhi_epi16(c, zero);
        let p_a = _mm256_mullo_epi32(cw_a, c_a);
        let p_b = _mm256_mullo_epi32(cw_b, c_b);
        for p in [p_a, p_b] {
            sum = _mm256_add_epi64(sum, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(p)));
            sum = _mm256_add_epi64(sum, _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(p)));
        }
    }
    let mut lanes = [0i64; 4];
    _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum);
    lanes.iter().sum()
}
