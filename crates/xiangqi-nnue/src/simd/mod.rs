//! The two inner loops of inference, each with a scalar path and SIMD
//! paths chosen at run time: updating an accumulator by feature rows, and
//! the output layer's `sum(clamp(acc, 0, QA)² * w)`.
//!
//! Both give the same bits on every path (tested): accumulator lanes add
//! and subtract with i16 wrap-around, where the order of operations cannot
//! change the result, and the output sums exact integer products in i64.

#[cfg(target_arch = "x86_64")]
mod avx2;
mod scalar;

/// Which instructions the kernels use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Simd {
    /// Plain Rust (which the compiler may still vectorise for the baseline target).
    Scalar,
    /// x86-64 AVX2, 16 i16 lanes.
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Simd {
    /// The best path this processor supports.
    pub fn detect() -> Simd {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Simd::Avx2;
        }
        Simd::Scalar
    }

    /// Every path this processor supports, the scalar one first (for tests and benchmarks).
    pub fn available() -> Vec<Simd> {
        let mut paths = vec![Simd::Scalar];
        if Simd::detect() != Simd::Scalar {
            paths.push(Simd::detect());
        }
        paths
    }

    /// Its name in reports: `scalar`, `avx2`.
    pub fn name(self) -> &'static str {
        match self {
            Simd::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => "avx2",
        }
    }

    /// `dst = src + sum(added) - sum(removed)`, lane by lane with i16
    /// wrap-around. Every slice has `dst`'s length, a multiple of 16.
    #[inline]
    pub fn update(self, dst: &mut [i16], src: &[i16], added: &[&[i16]], removed: &[&[i16]]) {
        let n = dst.len();
        assert!(
            n % 16 == 0 && src.len() == n && added.iter().chain(removed).all(|row| row.len() == n),
            "accumulator rows of unequal or unaligned length"
        );
        match self {
            Simd::Scalar => scalar::update(dst, src, added, removed),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Avx2` is only made by `detect` after the processor said
            // it has AVX2; the lengths were checked above.
            Simd::Avx2 => unsafe { avx2::update(dst, src, added, removed) },
        }
    }

    /// `sum(clamp(acc[i], 0, QA)² * weights[i])`, exact in i64. Both slices
    /// have the same length, a multiple of 16.
    #[inline]
    pub fn screlu_dot(self, acc: &[i16], weights: &[i16]) -> i64 {
        assert!(
            acc.len() % 16 == 0 && acc.len() == weights.len(),
            "accumulator and weights of unequal or unaligned length"
        );
        match self {
            Simd::Scalar => crate::network::screlu_dot_scalar(acc, weights),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`.
            Simd::Avx2 => unsafe { avx2::screlu_dot(acc, weights) },
        }
    }
}
