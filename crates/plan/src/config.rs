//! The plan as the workload crate wants it ([`JobPlan::workload_config`]): its pattern and
//! sizes, the regions of its files, its limits, its buffers' contents and its seed.

use crate::plan::JobPlan;
use iomark_core::PerDir;
use iomark_workload::{BlockSizes, FileRegion, WorkloadConfig};

impl JobPlan {
    /// The job's workload, as the workload crate wants it. The runner stretches each
    /// region's reach to its file's end once the files are open (see
    /// [`iomark_workload::FileRegion::reach`]).
    pub fn workload_config(&self) -> WorkloadConfig {
        let w = &self.workload;
        let bs = [0, 1, 2].map(|d| match (&w.bssplit[d], w.bsrange[d]) {
            (Some(split), _) => BlockSizes::Split(
                split
                    .iter()
                    .map(|e| iomark_workload::SplitEntry { size: e.bs, percent: e.percent })
                    .collect(),
            ),
            (None, Some((min, max))) => BlockSizes::Range { min, max },
            (None, None) => BlockSizes::Fixed(w.bs[d]),
        });
        let [read, write, trim] = bs;
        let min_write = write.min();
        let limits = &self.limits;
        let io_limit_default: u64 = self.files.list.iter().map(|f| f.len).sum();
        let [r, wr, t] = w.percentage_random;
        let [dr, dw, dt] = w.distribution.clone();
        WorkloadConfig {
            rw: w.rw,
            rw_modifier: w.rw_modifier.unwrap_or(0),
            rwmixread: w.rwmixread,
            bs: PerDir { read, write, trim },
            blockalign: match w.blockalign {
                Some([r, w, t]) => PerDir { read: Some(r), write: Some(w), trim: Some(t) },
                None => PerDir::all(None),
            },
            files: self.files.list.iter().map(|f| FileRegion::new(f.offset, f.len)).collect(),
            file_service: w.file_service,
            open_files: w.open_files,
            zones: w.zones,
            io_limit: limits.io_bytes,
            io_size_given: limits.io_size_given,
            number_ios: (limits.number_ios > 0).then_some(limits.number_ios),
            loops: u32::try_from(limits.loops).unwrap_or(u32::MAX),
            time_based: limits.time_based,
            random_map: w.random_map(),
            seed: self.seeds.workload,
            fio_seeds: self.seeds.fio,
            file_seeds: self
                .files
                .list
                .iter()
                .map(|f| self.seeds.fio.file_seed(&f.path.display().to_string()))
                .collect(),
            percentage_random: PerDir { read: r, write: wr, trim: t },
            buffers: self.buffers.options(io_limit_default, min_write),
            distribution: PerDir { read: dr, write: dw, trim: dt },
            lfsr: w.lfsr,
            rw_sequencer: w.sequencer,
            bs_unaligned: w.bs_unaligned,
            bs_is_seq_rand: w.bs_is_seq_rand,
            soft_random_map: w.softrandommap,
        }
    }
}
