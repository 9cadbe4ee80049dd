//! [`PercentileList`]: fio's `percentile_list`, checked and sorted as fio does, below both
//! the reduction and the figures (block lifetimes) that report percentiles.

/// fio's default `percentile_list`.
pub const FIO_DEFAULT_PERCENTILES: [f64; 17] = [
    1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95,
    99.99,
];

/// The most percentiles fio reports.
pub const MAX_PERCENTILES: usize = 20;

/// A validated, sorted `percentile_list`.
#[derive(Debug, Clone, PartialEq)]
pub struct PercentileList(Vec<f64>);

/// Why a `percentile_list` was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum PercentileListError {
    /// The list was empty.
    Empty,
    /// More than [`MAX_PERCENTILES`] values.
    TooMany(usize),
    /// A value outside (0, 100], or not a number.
    OutOfRange(f64),
}

impl std::fmt::Display for PercentileListError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Empty => write!(f, "the percentile list is empty"),
            Self::TooMany(n) => write!(f, "{n} percentiles given, at most {MAX_PERCENTILES}"),
            Self::OutOfRange(p) if *p == 0.0 => write!(
                f,
                "percentile 0 is not allowed (fio 3.33 takes a 0 for the end of the list \
                 and drops the percentiles after it)"
            ),
            Self::OutOfRange(p) => write!(f, "percentile {p} is not in (0, 100]"),
        }
    }
}

impl std::error::Error for PercentileListError {}

impl PercentileList {
    /// Checks and sorts a list as fio does.
    pub fn new(list: &[f64]) -> Result<Self, PercentileListError> {
        if list.is_empty() {
            return Err(PercentileListError::Empty);
        }
        if list.len() > MAX_PERCENTILES {
            return Err(PercentileListError::TooMany(list.len()));
        }
        if let Some(&bad) = list.iter().find(|p| !(**p > 0.0 && **p <= 100.0)) {
            return Err(PercentileListError::OutOfRange(bad));
        }
        let mut v = list.to_vec();
        v.sort_by(f64::total_cmp);
        Ok(PercentileList(v))
    }

    /// The values, in increasing order.
    pub fn values(&self) -> &[f64] {
        &self.0
    }
}

impl Default for PercentileList {
    /// [`FIO_DEFAULT_PERCENTILES`].
    fn default() -> Self {
        PercentileList(FIO_DEFAULT_PERCENTILES.to_vec())
    }
}
