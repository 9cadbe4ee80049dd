//! What the live page shows, shared between the run (which updates it every interval) and
//! the server (which answers from it).

use super::response::Response;
use crate::charts::section_charts;
use crate::charts::total_charts;
use crate::input::empty_report;
use crate::model::{Page, Run};
use iomark_stats::interval::{IntervalEvent, JobInterval};
use iomark_stats::report::RunReport;
use serde_json::json;
use std::sync::atomic::AtomicBool;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// Jobs whose charts the live page draws (the total is always drawn).
const LIVE_JOB_CHARTS: usize = 8;

/// The state behind the lock.
pub(super) struct LiveState {
    pub(super) page: Page,
    pub(super) latest: Option<IntervalEvent>,
    /// Raised at every update, so that the page sees a change.
    pub(super) seq: u64,
    /// The final report, once the run is over.
    pub(super) final_html: Option<String>,
    /// When a page last asked for the figures.
    pub(super) last_poll: Option<Instant>,
    /// Whether the final report has been sent since the run ended.
    pub(super) final_sent: bool,
    /// The charts, rendered at the last update.
    pub(super) charts: Vec<String>,
}

/// The state, the stop flag and a signal for "the final report went out".
pub(super) struct Shared {
    pub(super) stop: AtomicBool,
    pub(super) state: Mutex<LiveState>,
    pub(super) sent: Condvar,
}

impl Shared {
    pub(super) fn new(title: &str) -> Self {
        let page = Page { title: title.to_string(), runs: vec![Run::new("live", empty_report())] };
        Shared {
            stop: AtomicBool::new(false),
            state: Mutex::new(LiveState {
                page,
                latest: None,
                seq: 0,
                final_html: None,
                last_poll: None,
                final_sent: false,
                charts: Vec::new(),
            }),
            sent: Condvar::new(),
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, LiveState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The answer to `GET path`.
    pub(super) fn answer(&self, path: &str) -> Response {
        let mut s = self.lock();
        match path {
            "/" | "/index.html" => match &s.final_html {
                Some(html) => {
                    let r = Response::html(html.clone());
                    s.final_sent = true;
                    self.sent.notify_all();
                    r
                }
                None => Response::html(super::page::live_page(&s.page.title)),
            },
            "/report.html" => match &s.final_html {
                Some(html) => {
                    let r = Response::html(html.clone());
                    s.final_sent = true;
                    self.sent.notify_all();
                    r
                }
                None => Response::text(404, "the run is not over\n"),
            },
            "/live.json" => {
                s.last_poll = Some(Instant::now());
                Response::json(figures(&s))
            }
            _ => Response::text(404, "not found\n"),
        }
    }
}

impl LiveState {
    /// Takes in one interval and the interim report it was measured from.
    pub(super) fn update(&mut self, event: &IntervalEvent, report: &RunReport) {
        let run = &mut self.page.runs[0];
        run.report = report.clone();
        run.add_interval(event);
        self.latest = Some(event.clone());
        self.seq += 1;
        let mut charts = total_charts(&self.page);
        for (k, s) in self.page.sections().iter().enumerate().take(LIVE_JOB_CHARTS) {
            let mut job = section_charts(&self.page, s, k);
            job.retain(|c| {
                c.id.contains("over-time")
                    || c.id.ends_with("-iops")
                    || c.id.ends_with("-bandwidth")
            });
            for c in &mut job {
                c.title = format!("{}: {}", s.name, c.title);
            }
            charts.extend(job);
        }
        let (w, h) = crate::html::CHART_SIZE;
        self.charts = charts.iter().map(|c| c.to_svg(w, h)).collect();
    }
}

/// The figures the page polls for, as JSON.
fn figures(s: &LiveState) -> String {
    let row = |j: &JobInterval| {
        let dirs: Vec<_> = j
            .dirs
            .iter()
            .map(|d| {
                let pct = |p: f64| {
                    d.lat.as_ref().and_then(|l| {
                        l.percentiles.iter().find(|(q, _)| (q - p).abs() < 1e-9).map(|x| x.1)
                    })
                };
                json!({
                    "ios": d.ios, "iops": d.iops, "bw_bytes": d.bw_bytes,
                    "mean_ns": d.lat.as_ref().map(|l| l.mean),
                    "p50_ns": pct(50.0), "p99_ns": pct(99.0), "max_ns": pct(100.0),
                })
            })
            .collect();
        json!({ "name": j.name, "measured": j.measured, "dirs": dirs })
    };
    let latest = s.latest.as_ref();
    json!({
        "seq": s.seq,
        "done": s.final_html.is_some(),
        "t_ms": latest.map(|e| e.t_ms),
        "eta_s": latest.and_then(|e| e.eta_s),
        "states": latest.map(|e| e.states.clone()).unwrap_or_default(),
        "jobs": latest.map(|e| e.jobs.iter().map(row).collect::<Vec<_>>()).unwrap_or_default(),
        "total": latest.map(|e| row(&e.total)),
        "charts": s.charts,
    })
    .to_string()
}

/// A report with nothing in it, for tests.
#[cfg(test)]
pub(super) fn tests_report() -> RunReport {
    empty_report()
}
