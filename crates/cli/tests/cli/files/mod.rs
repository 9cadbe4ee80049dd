//! A job's files against fio 3.33: regions and where they end, file options, the zones and
//! file service of the corpus, what iomark asks of the kernel for them, and `fill_device`.

mod fill;
mod options;
mod regions;
mod skips;
mod traced;
mod zones;
