//! The reference path: one lane at a time.

pub(super) fn update(dst: &mut [i16], src: &[i16], added: &[&[i16]], removed: &[&[i16]]) {
    dst.copy_from_slice(src);
    for row in added {
        dst.iter_mut()
            .zip(*row)
            .for_each(|(a, &w)| *a = a.wrapping_add(w));
    }
    for row in removed {
        dst.iter_mut()
            .zip(*row)
            .for_each(|(a, &w)| *a = a.wrapping_sub(w));
    }
}
