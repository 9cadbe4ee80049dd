//! Which [`WorkloadConfig`]s cannot run: the checks every generator relies on, each
//! failure a [`ConfigError`] that names the fio option at fault.

use crate::bs::BlockSizes;
use crate::config::WorkloadConfig;
use crate::error::ConfigError;
use crate::zones::StridedZones;

/// The option name behind a [`BlockSizes`] value, for error messages.
fn bs_option(bs: &BlockSizes) -> &'static str {
    match bs {
        BlockSizes::Fixed(_) => "bs",
        BlockSizes::Range { .. } => "bsrange",
        BlockSizes::Split(_) => "bssplit",
    }
}

impl WorkloadConfig {
    /// Checks what every generator relies on, without building one (only
    /// [`crate::Workload::new`] allocates the random maps, whose failure it reports).
    pub fn check(&self) -> Result<(), ConfigError> {
        validate(self)
    }
}

/// Checks the parts of `cfg` that every generator relies on.
pub(crate) fn validate(cfg: &WorkloadConfig) -> Result<(), ConfigError> {
    if cfg.files.is_empty() {
        return Err(ConfigError::NoFiles);
    }
    if cfg.rwmixread > 100 {
        return Err(ConfigError::BadPercentage { option: "rwmixread", value: cfg.rwmixread });
    }
    for dir in cfg.directions() {
        if *cfg.percentage_random.get(dir) > 100 {
            return Err(ConfigError::BadPercentage {
                option: "percentage_random",
                value: *cfg.percentage_random.get(dir),
            });
        }
        if *cfg.blockalign.get(dir) == Some(0) {
            return Err(ConfigError::ZeroAlignment { dir });
        }
        if cfg.rw.is_random() {
            crate::distribution::check(cfg.distribution.get(dir), &cfg.files)
                .map_err(|why| ConfigError::BadDistribution { dir, why })?;
        }
    }
    crate::files::check(cfg.file_service)?;
    if let Some(z) = &cfg.zones {
        check_zones(z, cfg)?;
    }
    for dir in cfg.size_directions() {
        let bs = cfg.bs.get(dir);
        let option = bs_option(bs);
        let bad = |why: String| ConfigError::BadBlockSize { option, dir, why };
        match bs {
            BlockSizes::Fixed(0) => return Err(bad("zero".into())),
            BlockSizes::Range { min, max } if *min == 0 || min > max => {
                return Err(bad(format!("range {min}-{max}")))
            }
            BlockSizes::Split(entries) => {
                if entries.is_empty() || entries.iter().any(|e| e.size == 0) {
                    return Err(bad("empty split or zero size".into()));
                }
                let sum: u32 = entries.iter().filter_map(|e| e.percent).sum();
                if sum > 100 {
                    return Err(bad(format!("shares add up to {sum}, more than 100")));
                }
            }
            _ => {}
        }
        let min = bs.min();
        for (file, region) in cfg.files.iter().enumerate() {
            if region.len < min {
                return Err(ConfigError::BlockLargerThanRegion {
                    option,
                    dir,
                    bs: min,
                    file,
                    len: region.len,
                });
            }
        }
    }
    Ok(())
}

/// Checks the zone sizes and what strided zones cannot be combined with.
fn check_zones(zones: &StridedZones, cfg: &WorkloadConfig) -> Result<(), ConfigError> {
    let fail = |option, why: &str| Err(ConfigError::Zones { option, why: why.into() });
    if zones.size == 0 {
        return fail("zonesize", "must be given with zonemode=strided");
    }
    if zones.range == 0 {
        return fail("zonerange", "must be more than 0");
    }
    if cfg.rw.is_random() {
        if cfg.directions().any(|d| cfg.distribution.get(d).is_skewed()) {
            return fail(
                "zonemode",
                "strided zones take uniform random offsets; iomark does not combine them \
                 with a skewed random_distribution (fio 3.33 ends such a job after a part of \
                 its I/O)",
            );
        }
        if cfg.lfsr {
            return fail(
                "zonemode",
                "strided zones take their random offsets from the random map or uniformly; \
                 iomark does not combine them with random_generator=lfsr (fio 3.33 then \
                 repeats blocks)",
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bs::SplitEntry;
    use iomark_core::RwMode;

    #[test]
    fn bs_larger_than_region_names_the_option() {
        let cfg = WorkloadConfig::single_file(RwMode::Read, 8192, 4096);
        let err = validate(&cfg).unwrap_err();
        assert!(matches!(err, ConfigError::BlockLargerThanRegion { option: "bs", .. }));
        assert!(err.to_string().contains("'bs'"), "{err}");
    }

    #[test]
    fn only_issued_directions_are_checked() {
        // A trim size that would not fit does not matter to a read job.
        let mut cfg = WorkloadConfig::single_file(RwMode::Read, 4096, 16384);
        cfg.bs.trim = BlockSizes::Fixed(1 << 20);
        assert!(validate(&cfg).is_ok());
    }

    #[test]
    fn bad_values_are_refused() {
        let mut cfg = WorkloadConfig::single_file(RwMode::RandReadWrite, 4096, 16384);
        cfg.rwmixread = 101;
        assert!(validate(&cfg).is_err());
        let mut cfg = WorkloadConfig::single_file(RwMode::Read, 4096, 16384);
        cfg.bs.read = BlockSizes::Range { min: 8192, max: 4096 };
        assert!(validate(&cfg).unwrap_err().to_string().contains("bsrange"));
        cfg.bs.read = BlockSizes::Split(vec![
            SplitEntry { size: 4096, percent: Some(60) },
            SplitEntry { size: 8192, percent: Some(50) },
        ]);
        assert!(validate(&cfg).unwrap_err().to_string().contains("bssplit"));
        let cfg = WorkloadConfig { files: vec![], ..WorkloadConfig::default() };
        assert_eq!(validate(&cfg), Err(ConfigError::NoFiles));
    }
}
