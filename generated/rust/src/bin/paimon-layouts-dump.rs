//! paimon-layouts-dump prints a parsed file as the language-neutral JSON tree of tree_schema.json, the same
//! lines as every language's dump program.
//!
//!     paimon-layouts-dump ROOT FILE [PARAM ...]
//!     paimon-layouts-dump --jobs JOBS.tsv      (one job per line: ID, ROOT, FILE, PARAM ... by tabs)
//!     paimon-layouts-dump --bench RUNS ROOT FILE [PARAM ...]   ({"best_ms"}: parse + tree walk, best of RUNS)
//!
//! A PARAM is a JSON scalar: a hex string for bytes, a number (an enum by its id), true or false. Rust gives a
//! field its `if` leaves out its type's default (0, an empty list; an enum's "unknown 0"), and prints that,
//! where Python prints null. A panic of the parser is printed as a rejection whose error starts "panic:".

use paimon_layouts::roots::parse_root;
use serde_json::{json, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::Instant;

struct Job {
    id: String,
    root: String,
    file: String,
    params: Vec<Value>,
}

fn params(texts: &[String]) -> Result<Vec<Value>, String> {
    texts
        .iter()
        .map(|t| serde_json::from_str(t).map_err(|e| format!("parameter {t}: {e}")))
        .collect()
}

fn jobs_file(path: &str) -> Result<Vec<Job>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut jobs = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let cols: Vec<String> = line.split('\t').map(str::to_string).collect();
        if cols.len() < 3 {
            return Err(format!("{path}: a job line needs ID, ROOT and FILE: {line}"));
        }
        let (id, root, file) = (cols[0].clone(), cols[1].clone(), cols[2].clone());
        jobs.push(Job {
            id,
            root,
            file,
            params: params(&cols[3..])?,
        });
    }
    Ok(jobs)
}

/// {"ok": true, "tree"} or {"ok": false, "error"} for one file's bytes.
fn dump(root: &str, data: Vec<u8>, params: &[Value]) -> Value {
    let parsed = catch_unwind(AssertUnwindSafe(|| {
        parse_root(root, data, params).and_then(|t| t.to_tree())
    }));
    match parsed {
        Ok(Ok(tree)) => json!({"ok": true, "tree": tree}),
        Ok(Err(e)) => json!({"ok": false, "error": format!("{e:?}: {e}")}),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            json!({"ok": false, "error": format!("panic: {what}")})
        }
    }
}

fn bench(runs: usize, job: &Job) -> Result<(), String> {
    let data = std::fs::read(&job.file).map_err(|e| format!("{}: {e}", job.file))?;
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let start = Instant::now();
        let line = dump(&job.root, data.clone(), &job.params);
        best = best.min(start.elapsed().as_secs_f64());
        if line["ok"] != json!(true) {
            return Err(format!("{}: {}", job.file, line["error"]));
        }
    }
    println!("{}", json!({"best_ms": best * 1e3}));
    Ok(())
}

fn run(args: Vec<String>) -> Result<(), String> {
    let usage =
        "usage: paimon-layouts-dump ROOT FILE [PARAM ...] | --jobs JOBS.tsv | --bench RUNS ROOT FILE [PARAM ...]";
    match args.first().map(String::as_str) {
        Some("--jobs") if args.len() == 2 => {
            let mut out = String::new();
            for job in jobs_file(&args[1])? {
                let data = std::fs::read(&job.file).map_err(|e| format!("{}: {e}", job.file))?;
                let mut line = json!({"id": job.id});
                if let (Value::Object(head), Value::Object(rest)) = (&mut line, dump(&job.root, data, &job.params)) {
                    head.extend(rest);
                }
                out.push_str(&line.to_string());
                out.push('\n');
            }
            print!("{out}");
            Ok(())
        }
        Some("--bench") if args.len() >= 4 => {
            let runs: usize = args[1]
                .parse()
                .map_err(|_| format!("--bench {}: not a count", args[1]))?;
            let job = Job {
                id: args[3].clone(),
                root: args[2].clone(),
                file: args[3].clone(),
                params: params(&args[4..])?,
            };
            bench(runs, &job)
        }
        Some(a) if !a.starts_with("--") && args.len() >= 2 => {
            let data = std::fs::read(&args[1]).map_err(|e| format!("{}: {e}", args[1]))?;
            let mut line = json!({"id": args[1]});
            if let (Value::Object(head), Value::Object(rest)) = (&mut line, dump(a, data, &params(&args[2..])?)) {
                head.extend(rest);
            }
            println!("{line}");
            Ok(())
        }
        _ => Err(usage.to_string()),
    }
}

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|_| {})); // a parser's panic is reported in its line, not on stderr
    let args: Vec<String> = std::env::args().skip(1).collect();
    // deep trees recurse deeply: the work runs on a thread with a large stack
    let worker = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || run(args));
    match worker
        .map_err(|e| e.to_string())
        .and_then(|h| h.join().map_err(|_| "the dump panicked".to_string()))
    {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(msg)) | Err(msg) => {
            eprintln!("paimon-layouts-dump: {msg}");
            ExitCode::from(2)
        }
    }
}
