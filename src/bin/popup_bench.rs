//! `make bench`: how fast the popup opens to an interactive command box.
//! Opens popup.html ten times in headless Firefox with the add-on and reads
//! the page's own `tw-interactive` performance mark (set once the wasm has
//! started and the command box listens), in ms from the page's start.
//! Figures only; nothing is asserted. (A browser-action popup is a page
//! like this one, in a panel.)

use std::process::ExitCode;
use tab_whisperer::firefox::POPUP_PAGE;
use tab_whisperer::{extension_url, wait_for, Firefox, Result};

const OPENS: usize = 10;

fn run() -> Result<Vec<f64>> {
    let ff = Firefox::headless()?;
    let session = ff.session();
    let mut times = Vec::with_capacity(OPENS);
    for _ in 0..OPENS {
        session.navigate(&extension_url(POPUP_PAGE))?;
        let ms = wait_for(
            std::time::Duration::from_secs(20),
            "the popup to start",
            || {
                let v = session.execute(
                "const m = performance.getEntriesByName('tw-interactive')[0]; return m ? m.startTime : null;",
                &[],
            )?;
                Ok(v.as_f64())
            },
        )?;
        times.push(ms);
    }
    Ok(times)
}

fn main() -> ExitCode {
    match run() {
        Ok(times) => {
            let mut sorted = times.clone();
            sorted.sort_by(f64::total_cmp);
            println!("\npopup: ms from page start to an interactive command box (headless Firefox ESR, {OPENS} opens)");
            println!(
                "first {:.0} ms, median {:.0} ms, fastest {:.0} ms, slowest {:.0} ms (target < 100 ms)",
                times[0],
                sorted[OPENS / 2],
                sorted[0],
                sorted[OPENS - 1]
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("popup_bench: {e}");
            ExitCode::FAILURE
        }
    }
}
