//! The steady-state watch, resolved (`steadystate`/`ss`, `steadystate_duration`/`ss_dur`,
//! `steadystate_ramp_time`/`ss_ramp`). The watch itself is the runner's `steady` (fio
//! 3.33's rules are there).

use crate::error::OptionError;
use iomark_options::keys;
use iomark_options::value::steady::read_steadystate;
use iomark_options::value::Ctx;
use iomark_options::JobSpec;

/// What steady state is judged on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criterion {
    /// IOPS samples within the limit of their mean.
    Iops,
    /// The slope of the IOPS samples within the limit.
    IopsSlope,
    /// Bandwidth samples within the limit of their mean.
    Bw,
    /// The slope of the bandwidth samples within the limit.
    BwSlope,
}

impl Criterion {
    /// The criterion's name, as `steadystate` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Iops => "iops",
            Criterion::IopsSlope => "iops_slope",
            Criterion::Bw => "bw",
            Criterion::BwSlope => "bw_slope",
        }
    }

    /// Whether the slope of the samples is judged (not their distance from the mean).
    pub fn slope(self) -> bool {
        matches!(self, Criterion::IopsSlope | Criterion::BwSlope)
    }

    /// Whether bandwidth is judged (not IOPS).
    pub fn bw(self) -> bool {
        matches!(self, Criterion::Bw | Criterion::BwSlope)
    }
}

/// A job's steady-state options, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct SteadyPlan {
    /// What is judged.
    pub criterion: Criterion,
    /// The limit.
    pub limit: f64,
    /// Whether the limit is a percentage of the mean.
    pub percent: bool,
    /// The window, in seconds (samples).
    pub duration_s: u64,
    /// How long after the start samples begin to count, in nanoseconds.
    pub ramp_ns: u64,
}

impl SteadyPlan {
    /// The steady-state options of `spec`; `None` when `ss_dur` is 0.
    pub fn of(spec: &JobSpec) -> Result<Option<SteadyPlan>, OptionError> {
        let duration_s = spec.get(keys::STEADYSTATE_DURATION).map_or(0, |d| d.as_secs());
        let text = spec.get(keys::STEADYSTATE).unwrap_or_else(|| "iops_slope:0.01%".into());
        let (criterion, limit, percent) =
            parse(&text, &spec.ctx()).map_err(|why| OptionError::new(keys::STEADYSTATE, why))?;
        if duration_s == 0 {
            return Ok(None);
        }
        let ramp_ns = spec.get(keys::STEADYSTATE_RAMP_TIME).map_or(0, |d| d.as_nanos() as u64);
        Ok(Some(SteadyPlan { criterion, limit, percent, duration_s, ramp_ns }))
    }
}

/// `criterion:limit[%]`, as fio 3.33 reads it ([`read_steadystate`]; its leniency is noted
/// when the job is parsed).
fn parse(text: &str, ctx: &Ctx) -> Result<(Criterion, f64, bool), String> {
    let (ss, _) = read_steadystate(text, ctx).map_err(|e| e.to_string())?;
    let criterion = match ss.criterion {
        "iops" => Criterion::Iops,
        "iops_slope" => Criterion::IopsSlope,
        "bw" => Criterion::Bw,
        _ => Criterion::BwSlope,
    };
    Ok((criterion, ss.limit, ss.percent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_criteria_parse_as_fio_writes_them() {
        let parse = |text| super::parse(text, &Ctx::default());
        assert_eq!(parse("iops_slope:0.01%"), Ok((Criterion::IopsSlope, 0.01, true)));
        assert_eq!(parse("bw:100"), Ok((Criterion::Bw, 100.0, false)));
        assert!(parse("lat:1").unwrap_err().contains("unknown criterion 'lat'"));
        assert!(parse("iops").is_err() && parse("iops:x%").is_err());
        assert_eq!(parse("bw_slope:1m"), Ok((Criterion::BwSlope, 1_048_576.0, false)));
        assert_eq!(parse("iops:1k"), Ok((Criterion::Iops, 1.0, false)), "fio's reading");
    }
}
