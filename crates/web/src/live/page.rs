//! The live page: a table of the last interval's figures per job and in total, the ETA
//! and the jobs' states, and the charts over time, refreshed by polling `live.json` once a
//! second. When the run is over the page turns into the final report (`report.html`).

use crate::html::CSS;
use crate::svg::escape;

/// The page's script: polls, fills the table and the charts, and goes to the final report
/// at the end. Figures are written like the charts' axes.
const JS: &str = r#"
function fmt(v, unit) {
  if (v === null || v === undefined) return '–';
  var steps = unit === 'B/s' ? [[1073741824, 'GiB/s'], [1048576, 'MiB/s'], [1024, 'KiB/s'], [1, 'B/s']]
    : unit === 'ns' ? [[1e9, 's'], [1e6, 'ms'], [1e3, 'µs'], [1, 'ns']]
    : [[1e9, 'G'], [1e6, 'M'], [1e3, 'k'], [1, '']];
  for (var i = 0; i < steps.length; i++) {
    if (Math.abs(v) >= steps[i][0] || i === steps.length - 1) {
      var x = v / steps[i][0];
      return (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)) + steps[i][1];
    }
  }
}
var DIRS = ['read', 'write', 'trim'];
function rows(job) {
  var out = '';
  job.dirs.forEach(function (d, i) {
    if (!d.ios && !d.iops) return;
    out += '<tr><td>' + job.name.replace(/</g, '&lt;') + '</td><td>' + DIRS[i] + '</td><td class="fig">' +
      fmt(d.iops, '') + '</td><td class="fig">' + fmt(d.bw_bytes, 'B/s') + '</td><td>' + fmt(d.mean_ns, 'ns') +
      '</td><td>' + fmt(d.p50_ns, 'ns') + '</td><td>' + fmt(d.p99_ns, 'ns') + '</td><td>' + fmt(d.max_ns, 'ns') +
      '</td><td>' + (job.measured ? '' : 'ramp') + '</td></tr>';
  });
  return out;
}
function show(s) {
  var eta = s.eta_s === null || s.eta_s === undefined ? '?' : s.eta_s + ' s';
  document.getElementById('status').textContent = s.t_ms === null ? 'starting…' :
    'at ' + (s.t_ms / 1000).toFixed(1) + ' s, eta ' + eta + ', jobs: ' + s.states.join(' ');
  var body = '';
  s.jobs.forEach(function (j) { body += rows(j); });
  if (s.total && s.jobs.length > 1) body += rows(s.total);
  document.getElementById('figures').innerHTML = body;
  document.getElementById('charts').innerHTML = s.charts.join('');
  document.body.setAttribute('data-seq', s.seq);
}
function poll() {
  fetch('live.json', {cache: 'no-store'}).then(function (r) { return r.json(); }).then(function (s) {
    show(s);
    if (s.done) { location.replace('report.html'); return; }
    setTimeout(poll, 1000);
  }).catch(function () { setTimeout(poll, 1000); });
}
poll();
"#;

/// The live page for a run called `title`.
pub(super) fn live_page(title: &str) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <link rel=\"icon\" href=\"data:,\"><title>iomark live: {t}</title><style>{CSS}td.fig{{font-weight:bold}}</style></head>\
         <body data-seq=\"0\"><h1>iomark live: {t}</h1><p id=\"status\" class=\"meta\">starting…</p>\
         <table><thead><tr><th>job</th><th>dir</th><th>IOPS</th><th>bandwidth</th><th>mean</th>\
         <th>p50</th><th>p99</th><th>max</th><th></th></tr></thead><tbody id=\"figures\"></tbody>\
         </table><div class=\"charts\" id=\"charts\"></div><script>{JS}</script></body></html>",
        t = escape(title)
    )
}
