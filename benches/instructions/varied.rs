//! A loop over `score_core::score_with` on a fixed, varied set of profiles (one JSON profile a
//! line: `benches/instructions/run.sh --varied` writes the `input` of every `fixtures/cases/*.json`
//! that has an `expected` report), for instruction counts: the script copies it into each tree
//! it measures as `score-core/examples/instructions_loop.rs`. Arguments: the number of rounds
//! (each scores every profile once), `sin` for reports without what-ifs, and the profiles' file.
//! A profile the measured commit rejects is left out and reported on stderr, so that the script
//! can keep only profiles every commit accepts. Only API every measured commit has.

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(12);
    let simulaciones = args.next().as_deref() != Some("sin");
    let path = args.next().expect("profiles file");
    let text = std::fs::read_to_string(&path).expect("profiles file readable");
    let mut profiles = Vec::new();
    for (line, json) in text.lines().enumerate() {
        match score_core::Profile::from_json_str(json) {
            Ok(profile) => profiles.push(profile),
            Err(_) => eprintln!("rejected line {}", line + 1),
        }
    }
    eprintln!("profiles {}", profiles.len());
    let opciones = score_core::Opciones { simulaciones, ..score_core::Opciones::default() };
    // The embedded figures are read on first use: one report before the loop, in both counts.
    let mut total = u64::from(score_core::score_with(&profiles[0], opciones).expect("report").score);
    for _ in 0..rounds {
        for profile in &profiles {
            let report = score_core::score_with(std::hint::black_box(profile), opciones).expect("report");
            total += u64::from(report.score);
        }
    }
    println!("{total}");
}
