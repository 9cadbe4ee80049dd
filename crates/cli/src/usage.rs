//! The text of `iomark --help`.

/// What `--help` prints.
pub const TEXT: &str = "\
iomark: a flexible I/O tester that runs fio's job files and prints fio's reports

usage: iomark [options] [job options] [job file(s)]

With no job file and no --name, iomark runs its default suite on a temporary file.
`iomark genzipf -h` previews a zipf, pareto or normal random_distribution (as fio-genzipf).

Options:
  --output=FILE            Write the report to FILE
  --output-format=LIST     Report formats, comma separated: normal, terse, json, json+
  --minimal                Terse output (same as --output-format=terse)
  --append-terse           Add terse to the formats (deprecated in fio; use --output-format)
  --terse-version=N        Terse format version: 2, 3 (default), 4 or 5
  --parse-only             Check the job files and options, run nothing
  --showcmd                Print each job as one iomark command line
  --cmdhelp[=OPTION|all]   Help on a job option, or on all of them
  --enghelp[=ENGINE]       List the I/O engines, or the options of one
  --section=NAME           Run only job sections called NAME (repeatable)
  --readonly               Refuse any job that writes or trims
  --max-jobs=N             Refuse to run more than N jobs (clones included)
  --eta=WHEN               When to print the ETA line: auto, always, never
  --eta-newline=TIME       Start a new ETA line every TIME
  --eta-interval=TIME      Update the ETA line every TIME (milliseconds by default)
  --status-interval=TIME   Print a full report every TIME
  --bandwidth-log          Write agg-{read,write,trim}_bw.log while the ETA line runs
  --debug=LIST             Debug output; 'parse' prints every parsed value
  --version                Print the version and exit
  --help, -h               Print this text

Job options are fio's (see --cmdhelp=all and docs/options.md): options before the first
--name=JOB are global, --name opens a job and the options after it belong to it.

Exit codes: 0 success, 1 a job or verification failed, 2 bad usage or configuration.
";
