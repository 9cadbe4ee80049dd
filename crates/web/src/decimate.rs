//! Fewer points for the same picture: what keeps a chart (and so the HTML report) small
//! whatever the number of I/Os, without hiding an outlier.
//!
//! [`min_max`] cuts the x range into equal columns (about one per pixel) and keeps, in each,
//! the first and last points and those with the smallest and largest y (the "M4" rule): a
//! line or scatter drawn from them covers the same pixels as one drawn from every point,
//! and the smallest and largest values of the whole series are always kept. [`log_bins`]
//! regroups a latency histogram's fine buckets into a fixed number of bins per decade.

/// At most about `4 × columns` points of `points` (see the module doc), in x order;
/// `points` itself when it is that small already.
pub fn min_max(points: &[(f64, f64)], columns: usize) -> Vec<(f64, f64)> {
    let columns = columns.max(1);
    if points.len() <= 4 * columns {
        return points.to_vec();
    }
    let (lo, hi) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| (lo.min(p.0), hi.max(p.0)));
    let width = (hi - lo) / columns as f64;
    // Per column: the indexes of its first, last, lowest and highest points.
    let mut keep: Vec<Option<[usize; 4]>> = vec![None; columns];
    for (i, p) in points.iter().enumerate() {
        let c = if width > 0.0 { (((p.0 - lo) / width) as usize).min(columns - 1) } else { 0 };
        match &mut keep[c] {
            None => keep[c] = Some([i; 4]),
            Some([first, last, low, high]) => {
                if p.0 < points[*first].0 {
                    *first = i;
                }
                if p.0 >= points[*last].0 {
                    *last = i;
                }
                if p.1 < points[*low].1 {
                    *low = i;
                }
                if p.1 > points[*high].1 {
                    *high = i;
                }
            }
        }
    }
    let mut out = Vec::with_capacity(columns * 4);
    for mut kept in keep.into_iter().flatten() {
        kept.sort_unstable_by(|a, b| points[*a].0.total_cmp(&points[*b].0).then(a.cmp(b)));
        let mut last = None;
        for i in kept {
            if last != Some(i) {
                out.push(points[i]);
                last = Some(i);
            }
        }
    }
    out
}

/// A histogram's `(value, count)` bins regrouped into `per_decade` bins per power of ten:
/// `(geometric centre of the bin, count)`, empty bins left out. Counts add up to the
/// input's.
pub fn log_bins(bins: &[(u64, u64)], per_decade: u32) -> Vec<(f64, u64)> {
    let per = f64::from(per_decade.max(1));
    let mut out: Vec<(i64, u64)> = Vec::new();
    for &(value, count) in bins {
        let k = ((value.max(1) as f64).log10() * per).floor() as i64;
        match out.last_mut() {
            Some((last, c)) if *last == k => *c += count,
            _ => out.push((k, count)),
        }
    }
    out.into_iter().map(|(k, c)| (10f64.powf((k as f64 + 0.5) / per), c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_max_keeps_the_extremes_and_bounds_the_size() {
        let mut points: Vec<(f64, f64)> =
            (0..1_000_000u64).map(|i| (i as f64, ((i * 7919) % 1000) as f64)).collect();
        points[123_457].1 = 1e9;
        points[876_543].1 = -5.0;
        let kept = min_max(&points, 500);
        assert!(kept.len() <= 2000, "{}", kept.len());
        assert!(kept.contains(&(123_457.0, 1e9)) && kept.contains(&(876_543.0, -5.0)));
        assert_eq!(kept.first(), points.first());
        assert_eq!(kept.last(), points.last());
        assert!(kept.windows(2).all(|w| w[0].0 <= w[1].0), "in x order");
    }

    #[test]
    fn small_series_are_left_alone() {
        let points = vec![(0.0, 1.0), (1.0, 0.0)];
        assert_eq!(min_max(&points, 10), points);
    }

    #[test]
    fn log_bins_keep_every_count() {
        let bins: Vec<(u64, u64)> = (1..5000u64).map(|v| (v * 37, v % 3 + 1)).collect();
        let total: u64 = bins.iter().map(|b| b.1).sum();
        let regrouped = log_bins(&bins, 10);
        assert_eq!(regrouped.iter().map(|b| b.1).sum::<u64>(), total);
        assert!(regrouped.len() <= 10 * 6);
        assert!(regrouped.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
