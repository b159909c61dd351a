//! Trains the learned model (`src/analysis/model`) on the training side of
//! the detector corpus (`corpus/`, split by server: see `detector/corpus.rs`)
//! and writes its weights.
//!
//! ```text
//! cargo run --release --example detector_train -- [--out src/analysis/model/weights.bin] [--epochs 20] [--lr 0.2] [--l2 3e-3] [--balance 0.3] [--families MASK] [--holdout K] [--high P] [--support P] [--oof-thresholds]
//! ```
//!
//! Every sentence that the analysis reads (`analysis::model_texts`, the same
//! texts, readings and features as at scan time) is a sample: sentences that
//! carry a labelled payload are the poisoned class; every other sentence —
//! real public tool descriptions, the hard-benign servers, and the honest
//! cover text around payloads — is the honest class. Logistic regression
//! with AdaGrad and a little L2, in a fixed order with a fixed seed, so the
//! same corpus always gives the same weights.
//!
//! The thresholds are chosen on out-of-fold scores (five folds by server
//! inside the training side), per capability (the score of a capability is
//! its most suspicious sentence): `high` keeps false positives on honest
//! capabilities at or below 0.2 %, `medium` at or below 2 %, and `support`
//! (the bar a rule's high finding needs from the model) at 10 %.

#[path = "detector/corpus.rs"]
mod corpus;

use std::collections::HashMap;

use corpus::Split;
use gatehouse::analysis::model::{self, BUCKETS, Model, Place};
use gatehouse::analysis::normalize::Prepared;
use gatehouse::analysis::{self};

/// One sentence.
struct Sample {
    text: String,
    features: Vec<u32>,
    label: bool,
    /// Index of the capability (for capability-level scores).
    cap: usize,
    /// Cross-validation fold.
    fold: usize,
}

/// One capability.
struct Cap {
    attack: bool,
    name: String,
}

const FOLDS: usize = 5;

/// Training hyper-parameters (defaults are what the shipped weights use).
#[derive(Debug, Clone, Copy)]
struct Hyper {
    lr: f32,
    l2: f32,
    /// Positive class weight = (negatives / positives) ^ balance.
    balance: f32,
}

/// Words of a text, for matching payloads to sentences.
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether a sentence carries (part of) a payload: most of its words are
/// the payload's, in scripts with spaces, or it shares a long run of text
/// with it in scripts without.
fn carries(sentence: &str, payload_words: &[String], payload_plain: &str) -> bool {
    let sw = words(sentence);
    if sw.is_empty() {
        return false;
    }
    if payload_plain.contains(sentence.trim()) || sentence.contains(payload_plain.trim()) {
        return true;
    }
    let set: std::collections::HashSet<&str> = payload_words.iter().map(String::as_str).collect();
    let shared = sw.iter().filter(|w| set.contains(w.as_str())).count();
    let long_unspaced = sw
        .iter()
        .any(|w| w.chars().count() >= 6 && payload_plain.contains(w.as_str()) && !w.is_ascii());
    (shared * 2 >= sw.len() && shared >= 2.min(sw.len())) || long_unspaced
}

/// A deterministic generator for the shuffle.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// Trains on `samples` where `keep(sample)`, returning weights and bias.
fn train(
    samples: &[Sample],
    keep: impl Fn(&Sample) -> bool,
    epochs: usize,
    hp: Hyper,
) -> (Vec<f32>, f32) {
    let idx: Vec<usize> = (0..samples.len()).filter(|&i| keep(&samples[i])).collect();
    let pos = idx.iter().filter(|&&i| samples[i].label).count().max(1);
    let neg = (idx.len() - pos).max(1);
    let pos_weight = ((neg as f32) / (pos as f32)).powf(hp.balance);
    let mut w = vec![0.0f32; BUCKETS];
    let mut g2 = vec![1e-6f32; BUCKETS];
    let (mut bias, mut bias_g2) = (0.0f32, 1e-6f32);
    let (lr, l2) = (hp.lr, hp.l2);
    let mut order = idx.clone();
    let mut rng = Lcg(0x6761_7465_686f_7573);
    for _ in 0..epochs {
        for i in (1..order.len()).rev() {
            let j = (rng.next() as usize) % (i + 1);
            order.swap(i, j);
        }
        for &i in &order {
            let s = &samples[i];
            let v = model::feature_value(s.features.len());
            let z: f32 = bias + v * s.features.iter().map(|&f| w[f as usize]).sum::<f32>();
            let p = model::sigmoid(z);
            let y = if s.label { 1.0 } else { 0.0 };
            let err = (p - y) * if s.label { pos_weight } else { 1.0 };
            for &f in &s.features {
                let f = f as usize;
                let g = err * v + l2 * w[f];
                g2[f] += g * g;
                w[f] -= lr * g / g2[f].sqrt();
            }
            bias_g2 += err * err;
            bias -= lr * err / bias_g2.sqrt();
        }
    }
    (w, bias)
}

/// The smallest threshold whose false-positive rate on honest capabilities
/// is at most `rate`.
fn threshold(scores: &[(f32, bool)], rate: f64) -> f32 {
    let mut honest: Vec<f32> = scores.iter().filter(|s| !s.1).map(|s| s.0).collect();
    honest.sort_by(|a, b| b.partial_cmp(a).unwrap());
    let allowed = ((honest.len() as f64) * rate).floor() as usize;
    // Strictly above the (allowed+1)-th highest honest score.
    let t = honest.get(allowed).copied().unwrap_or(0.0);
    (t + 1e-6).min(0.999_999)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let out = arg("--out").unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/analysis/model/weights.bin"
        )
        .to_string()
    });
    let epochs: usize = arg("--epochs").and_then(|e| e.parse().ok()).unwrap_or(20);
    let hp = Hyper {
        lr: arg("--lr").and_then(|e| e.parse().ok()).unwrap_or(0.2),
        l2: arg("--l2").and_then(|e| e.parse().ok()).unwrap_or(3e-3),
        balance: arg("--balance").and_then(|e| e.parse().ok()).unwrap_or(0.3),
    };
    let dry = args.iter().any(|a| a == "--dry");
    // Words, shapes and cues; character n-grams (family 2) scored lower on
    // validation once the lexicon covered the weak languages, and cost time.
    let mask = arg("--families")
        .and_then(|m| m.parse().ok())
        .unwrap_or(model::FAMILY_WORDS | model::FAMILY_SHAPE | model::FAMILY_CUES);
    model::set_families(mask);
    let export = arg("--export");
    // `--holdout K`: leave training fold K out entirely, to calibrate the
    // whole analysis on it (`detector_eval --split val:K --weights …`).
    let holdout: Option<usize> = arg("--holdout").and_then(|k| k.parse().ok());
    let servers: Vec<corpus::Server> = corpus::load()
        .into_iter()
        .filter(|s| s.split == Split::Train || export.is_some())
        .filter(|s| Some(corpus::fold(&s.id)) != holdout)
        .collect();
    let mut export_lines = Vec::new();

    let mut samples = Vec::new();
    let mut caps: Vec<Cap> = Vec::new();
    let mut unmatched = 0usize;
    for s in &servers {
        let fold = corpus::fold(&s.id);
        let mut cap_index: HashMap<gatehouse::snapshot::Target, usize> = HashMap::new();
        let payloads: Vec<(gatehouse::snapshot::Target, Vec<String>, String)> = s
            .labels
            .iter()
            .map(|l| {
                let plain = Prepared::new(&l.payload).plain;
                let spoken = if l.payload.contains(' ') {
                    plain.clone()
                } else {
                    gatehouse::analysis::directive::name_words(&l.payload).join(" ")
                };
                (l.target.clone(), words(&spoken), spoken)
            })
            .collect();
        let mut matched: std::collections::HashSet<usize> = Default::default();
        for t in analysis::model_texts(&s.snapshot) {
            let cap = *cap_index.entry(t.target.clone()).or_insert_with(|| {
                caps.push(Cap {
                    attack: s.labels.iter().any(|l| l.target == t.target),
                    name: format!("{}:{}", s.id, t.target.name),
                });
                caps.len() - 1
            });
            for (i, sent) in t.reading.sentences.iter().enumerate() {
                let text = &t.plain[sent.range.clone()];
                let mut label = false;
                for (k, (target, pw, pp)) in payloads.iter().enumerate() {
                    if *target == t.target && carries(text, pw, pp) {
                        label = true;
                        matched.insert(k);
                    }
                }
                let mut features = Vec::new();
                let place = Place {
                    role: t.role,
                    contract: &t.contract,
                    first: i == 0,
                    hidden: t.hidden,
                };
                model::features(&t.plain, &t.reading, i, place, &mut features);
                if export.is_some() {
                    export_lines.push(serde_json::json!({
                        "text": text, "label": label, "cap": cap, "server": s.id,
                        "test": s.split == Split::Test, "attack_cap": s.labels.iter().any(|l| l.target == t.target),
                    }).to_string());
                }
                samples.push(Sample {
                    text: text.chars().take(160).collect(),
                    features,
                    label,
                    cap,
                    fold,
                });
            }
        }
        unmatched += payloads.len() - matched.len();
        if std::env::var_os("TRAIN_VERBOSE").is_some() {
            for (k, (t, _, pp)) in payloads.iter().enumerate() {
                if !matched.contains(&k) {
                    eprintln!(
                        "unmatched payload {} {:?}:{} «{}»",
                        s.id,
                        t.kind,
                        t.name,
                        pp.chars().take(120).collect::<String>()
                    );
                }
            }
        }
    }
    if let Some(path) = &export {
        std::fs::write(path, export_lines.join("\n")).expect("write export");
        println!("exported {} sentences to {path}", export_lines.len());
        return;
    }
    let positives = samples.iter().filter(|s| s.label).count();
    println!(
        "training side: {} servers, {} capabilities ({} poisoned), {} sentences ({} poisoned); {} payloads matched no sentence",
        servers.len(),
        caps.len(),
        caps.iter().filter(|c| c.attack).count(),
        samples.len(),
        positives,
        unmatched
    );

    // Out-of-fold capability scores.
    let mut oof = vec![0.0f32; caps.len()];
    let mut oof_best: Vec<Option<usize>> = vec![None; caps.len()];
    for fold in 0..FOLDS {
        let (w, bias) = train(&samples, |s| s.fold != fold, epochs, hp);
        let m = Model {
            bias,
            medium: 1.0,
            high: 1.0,
            support: 1.0,
            families: model::families(),
            weights: w,
        };
        for (i, s) in samples.iter().enumerate().filter(|(_, s)| s.fold == fold) {
            let p = m.probability(&s.features);
            if p > oof[s.cap] {
                oof[s.cap] = p;
                oof_best[s.cap] = Some(i);
            }
        }
    }
    let scores: Vec<(f32, bool)> = caps.iter().zip(&oof).map(|(c, &p)| (p, c.attack)).collect();
    let high = threshold(&scores, 0.002);
    let medium = threshold(&scores, 0.02).min(high);
    // The bar a rule's finding needs from the model to stay high: the score
    // that one honest capability in ten reaches.
    let support = threshold(&scores, 0.10).min(medium);
    let recall = |t: f32| {
        let a: Vec<_> = scores.iter().filter(|s| s.1).collect();
        a.iter().filter(|s| s.0 >= t).count() as f64 / a.len().max(1) as f64
    };
    let fp = |t: f32| {
        let h: Vec<_> = scores.iter().filter(|s| !s.1).collect();
        h.iter().filter(|s| s.0 >= t).count() as f64 / h.len().max(1) as f64
    };
    println!(
        "out-of-fold: high ≥ {high:.4}: recall {:.3}, false positives {:.3} %; medium ≥ {medium:.4}: recall {:.3}, false positives {:.3} %",
        recall(high),
        100.0 * fp(high),
        recall(medium),
        100.0 * fp(medium)
    );

    println!(
        "at 0.5 % false positives: recall {:.3}",
        recall(threshold(&scores, 0.005))
    );
    if std::env::var_os("TRAIN_DEBUG").is_some() {
        let mut order: Vec<usize> = (0..caps.len()).collect();
        order.sort_by(|a, b| oof[*b].partial_cmp(&oof[*a]).unwrap());
        for &c in order.iter().filter(|&&c| !caps[c].attack).take(25) {
            let text = oof_best[c].map_or("", |i| samples[i].text.as_str());
            println!("honest {:.3} {} «{}»", oof[c], caps[c].name, text);
        }
        for &c in order.iter().rev().filter(|&&c| caps[c].attack).take(15) {
            let text = oof_best[c].map_or("", |i| samples[i].text.as_str());
            println!("missed {:.3} {} «{}»", oof[c], caps[c].name, text);
        }
        // In-sample separation and the honest capabilities that score highest out of fold.
        let (w, bias) = train(&samples, |_| true, epochs, hp);
        let m = Model {
            bias,
            medium: 1.0,
            high: 1.0,
            support: 1.0,
            families: model::families(),
            weights: w,
        };
        let mut ins = vec![0.0f32; caps.len()];
        for s in &samples {
            ins[s.cap] = ins[s.cap].max(m.probability(&s.features));
        }
        let sc: Vec<(f32, bool)> = caps.iter().zip(&ins).map(|(c, &p)| (p, c.attack)).collect();
        let t = threshold(&sc, 0.005);
        let r = sc.iter().filter(|s| s.1 && s.0 >= t).count() as f64
            / sc.iter().filter(|s| s.1).count() as f64;
        println!("in-sample at 0.5 % false positives: recall {r:.3}");
        let feats: Vec<usize> = samples.iter().map(|s| s.features.len()).collect();
        println!(
            "features per sentence: mean {:.1}, max {}",
            feats.iter().sum::<usize>() as f64 / feats.len() as f64,
            feats.iter().max().unwrap()
        );
    }
    if dry {
        return;
    }
    // `--high P --support P`: thresholds chosen for the whole analysis on
    // validation folds (`--holdout K`, then `detector_eval --split val:K`),
    // instead of the model's own out-of-fold rates.
    let fixed = |name: &str| arg(name).and_then(|v| v.parse::<f32>().ok());
    // The defaults were chosen that way (validation folds 0 and 1 without
    // the generated `wf-` servers: at most about 0.5–0.9 % false positives
    // for the whole analysis); `--oof-thresholds` keeps the model's own.
    let own = args.iter().any(|a| a == "--oof-thresholds");
    let high = fixed("--high").unwrap_or(if own { high } else { 0.75 });
    let support = fixed("--support").unwrap_or(if own { support } else { 0.8 });
    let medium = fixed("--medium").unwrap_or(medium).min(high);
    println!("thresholds: high {high:.4}, medium {medium:.4}, support {support:.4}");
    let (w, bias) = train(&samples, |_| true, epochs, hp);
    let model = Model {
        bias,
        medium,
        high,
        support,
        families: model::families(),
        weights: w,
    };
    std::fs::write(&out, model.to_bytes()).expect("write weights");
    let nonzero = model.weights.iter().filter(|w| **w != 0.0).count();
    println!("wrote {out}: {nonzero} non-zero weights of {BUCKETS}, bias {bias:.3}");
}
