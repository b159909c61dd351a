//! Trains the learned model (`src/analysis/model`) on the training side of
//! the detector corpus (`corpus/`, split by server: see `detector/corpus.rs`)
//! and writes its weights.
//!
//! ```text
//! cargo run --release --example detector_train -- [--out src/analysis/model/weights.bin] [--epochs 6] [--lr 0.15] [--l2 1e-6] [--balance 0.3] [--batch 128] [--drop 0.35] [--average 1] [--seed 1] [--teachers 0] [--soft 0.5] [--families MASK] [--holdout K] [--high P] [--support P] [--medium P] [--no-oof] [--dry] [--export FILE]
//! ```
//!
//! Every sentence that the analysis reads (`analysis::model_texts`, the same
//! texts, readings and features as at scan time), and every window of a
//! long sentence, is a sample. Units that carry a labelled payload are the
//! poisoned class; every other unit — real public tool descriptions, the
//! hard-benign servers, and the honest cover text around payloads — is the
//! honest class.
//!
//! Training is multiple-instance: a payload often spans several sentences
//! of which only one makes the request ("Our ledger is audited yearly. Post
//! every order to …"). After the first epoch only the highest-scoring
//! payload unit of each poisoned capability stays positive; its other
//! payload units are left out (neither class), as the capability's score
//! at scan time is its most suspicious sentence.
//!
//! The network (see `model`) is trained by mini-batch AdaGrad with a little
//! L2, from a fixed seed in a fixed order, so the same corpus always gives
//! the same weights. Each step leaves out a share of the sample's features
//! (`--drop`, feature dropout): a model that cannot count on any one word
//! or word pair of a wording it has seen generalises better to wordings it
//! has not. On the validation folds (ninth pass) a dropout of 0.35 caught
//! 22–31 more attacks than none at the same number of false positives, over
//! two seeds; `high` moved from 0.9 to 0.93 with it.
//!
//! The seed moves the validation figures as much as a pass's changes do:
//! with the same corpus and code, seeds 0, 1 and 2 gave 1,442, 1,427 and
//! 1,439 of 2,015 attacks for 58, 38 and 43 of 4,666 honest capabilities.
//! Seed 1 was chosen on those validation figures alone.
//!
//! `--teachers N --soft S` distils: N networks of other seeds are trained
//! first, and each unit's target becomes (1 − S) × its label + S × their
//! mean probability. On the tenth pass's validation folds, 5 teachers at
//! 0.7 caught 10–30 more of 2,015 attacks than no teachers at equal false
//! positives over seeds 0–2 of the old corpus, but on the new corpus 16
//! fewer at 40 false positives; 3 teachers at 0.5 were mixed. It stays
//! off (the default, 0 teachers).
//!
//! The thresholds: `high` and `support` are fixed (chosen for the whole
//! analysis on validation folds, `--holdout K` then `detector_eval --split
//! val:K`); `medium` is where out-of-fold scores (five folds by server
//! inside the training side, per capability) leave 2 % of honest
//! capabilities.

#[path = "detector/corpus.rs"]
mod corpus;

use std::collections::HashMap;

use corpus::Split;
use gatehouse::analysis::directive;
use gatehouse::analysis::model::{self, BUCKETS, DIM, Model, Place};
use gatehouse::analysis::normalize::Prepared;
use gatehouse::analysis::{self};

/// One scored unit: a sentence or a window of a long one.
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
    batch: usize,
    epochs: usize,
    /// Share of a sample's features left out at each step (feature
    /// dropout): the model cannot lean on one word of a wording it saw.
    drop: f32,
    /// Epochs at the end whose weights are averaged into the result.
    average: usize,
    /// Seed of the shuffle, the dropout and the initial weights.
    seed: u64,
    /// Teachers for distillation: that many networks (other seeds) are
    /// trained first, and their mean probability on each unit is mixed
    /// into its target (0: none).
    teachers: usize,
    /// Share of the teachers' mean in a unit's target.
    soft: f32,
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

/// A deterministic generator for the shuffle and the initial weights.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    /// Uniform in (0, 1).
    fn unit(&mut self) -> f32 {
        ((self.next() & 0xff_ffff) as f32 + 0.5) / 16_777_216.0
    }

    /// Standard normal (Box–Muller).
    fn normal(&mut self) -> f32 {
        let (u, v) = (self.unit(), self.unit());
        (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos()
    }
}

/// The network being trained, dense.
#[derive(Clone)]
struct Net {
    bias: f32,
    hidden_bias: [f32; DIM],
    out: [f32; DIM],
    linear: Vec<f32>,
    emb: Vec<f32>,
}

impl Net {
    fn new(seed: u64) -> Net {
        let mut rng = Lcg(0x6e65_7477_6f72_6b21 ^ seed);
        let emb = (0..BUCKETS * DIM).map(|_| 0.1 * rng.normal()).collect();
        let mut out = [0.0; DIM];
        for o in &mut out {
            *o = 0.3 * rng.normal();
        }
        Net {
            bias: 0.0,
            hidden_bias: [0.1; DIM],
            out,
            linear: vec![0.0; BUCKETS],
            emb,
        }
    }

    /// Adds `other`'s weights to these (for averaging epochs' weights).
    fn add(&mut self, other: &Net) {
        self.bias += other.bias;
        for j in 0..DIM {
            self.hidden_bias[j] += other.hidden_bias[j];
            self.out[j] += other.out[j];
        }
        self.linear
            .iter_mut()
            .zip(&other.linear)
            .for_each(|(a, b)| *a += b);
        self.emb
            .iter_mut()
            .zip(&other.emb)
            .for_each(|(a, b)| *a += b);
    }

    /// Multiplies every weight by `k`.
    fn scale(&mut self, k: f32) {
        self.bias *= k;
        self.hidden_bias.iter_mut().for_each(|w| *w *= k);
        self.out.iter_mut().for_each(|w| *w *= k);
        self.linear.iter_mut().for_each(|w| *w *= k);
        self.emb.iter_mut().for_each(|w| *w *= k);
    }

    /// The logit and the hidden units' pre-activations.
    fn forward(&self, features: &[u32]) -> (f32, [f32; DIM]) {
        let v = model::feature_value(features.len());
        let mut pre = [0.0f32; DIM];
        let mut lin = 0.0;
        for &f in features {
            let f = f as usize;
            lin += self.linear[f];
            for (p, e) in pre.iter_mut().zip(&self.emb[f * DIM..(f + 1) * DIM]) {
                *p += e;
            }
        }
        let mut z = self.bias + v * lin;
        for ((p, b), o) in pre.iter_mut().zip(&self.hidden_bias).zip(&self.out) {
            *p = b + v * *p;
            z += o * p.max(0.0);
        }
        (z, pre)
    }

    /// The compact model with the rows of the buckets in `seen`.
    fn compact(&self, seen: &[bool], thresholds: (f32, f32, f32)) -> Model {
        Model::from_rows(
            self.bias,
            self.hidden_bias,
            self.out,
            (0..BUCKETS)
                .filter(|&f| seen[f])
                .map(|f| (f as u32, self.linear[f], &self.emb[f * DIM..(f + 1) * DIM])),
            thresholds,
            model::families(),
        )
    }
}

/// AdaGrad state and the batch's gradients, sparse over the touched rows.
struct Grads {
    linear: Vec<f32>,
    emb: Vec<f32>,
    touched: Vec<u32>,
    is_touched: Vec<bool>,
    bias: f32,
    hidden_bias: [f32; DIM],
    out: [f32; DIM],
    // Accumulated squares.
    g2_linear: Vec<f32>,
    g2_emb: Vec<f32>,
    g2_bias: f32,
    g2_hidden_bias: [f32; DIM],
    g2_out: [f32; DIM],
}

impl Grads {
    fn new() -> Grads {
        Grads {
            linear: vec![0.0; BUCKETS],
            emb: vec![0.0; BUCKETS * DIM],
            touched: Vec::new(),
            is_touched: vec![false; BUCKETS],
            bias: 0.0,
            hidden_bias: [0.0; DIM],
            out: [0.0; DIM],
            g2_linear: vec![1e-6; BUCKETS],
            g2_emb: vec![1e-6; BUCKETS * DIM],
            g2_bias: 1e-6,
            g2_hidden_bias: [1e-6; DIM],
            g2_out: [1e-6; DIM],
        }
    }

    /// Adds one sample's gradient (`err` = weighted p − y).
    // One index walks five parallel arrays of the hidden layer.
    #[allow(clippy::needless_range_loop)]
    fn add(&mut self, net: &Net, features: &[u32], pre: &[f32; DIM], err: f32) {
        let v = model::feature_value(features.len());
        self.bias += err;
        let mut dpre = [0.0f32; DIM];
        for j in 0..DIM {
            let h = pre[j].max(0.0);
            self.out[j] += err * h;
            if pre[j] > 0.0 {
                dpre[j] = err * net.out[j];
                self.hidden_bias[j] += dpre[j];
            }
        }
        for &f in features {
            let fi = f as usize;
            if !self.is_touched[fi] {
                self.is_touched[fi] = true;
                self.touched.push(f);
            }
            self.linear[fi] += err * v;
            for (g, d) in self.emb[fi * DIM..(fi + 1) * DIM].iter_mut().zip(&dpre) {
                *g += d * v;
            }
        }
    }

    /// Applies the batch's gradients and clears them.
    // One index walks the hidden layer's parallel arrays.
    #[allow(clippy::needless_range_loop)]
    fn apply(&mut self, net: &mut Net, hp: Hyper) {
        let step = |w: &mut f32, g: f32, g2: &mut f32| {
            let g = g + hp.l2 * *w;
            *g2 += g * g;
            *w -= hp.lr * g / g2.sqrt();
        };
        step(&mut net.bias, self.bias, &mut self.g2_bias);
        self.bias = 0.0;
        for j in 0..DIM {
            step(&mut net.out[j], self.out[j], &mut self.g2_out[j]);
            step(
                &mut net.hidden_bias[j],
                self.hidden_bias[j],
                &mut self.g2_hidden_bias[j],
            );
            self.out[j] = 0.0;
            self.hidden_bias[j] = 0.0;
        }
        for &f in &self.touched {
            let f = f as usize;
            step(&mut net.linear[f], self.linear[f], &mut self.g2_linear[f]);
            self.linear[f] = 0.0;
            for k in f * DIM..(f + 1) * DIM {
                step(&mut net.emb[k], self.emb[k], &mut self.g2_emb[k]);
                self.emb[k] = 0.0;
            }
            self.is_touched[f] = false;
        }
        self.touched.clear();
    }
}

/// Trains on `samples` where `keep(sample)`; returns the network and the
/// buckets its training samples use.
fn train(samples: &[Sample], keep: impl Fn(&Sample) -> bool, hp: Hyper) -> (Net, Vec<bool>) {
    let idx: Vec<usize> = (0..samples.len()).filter(|&i| keep(&samples[i])).collect();
    let mut seen = vec![false; BUCKETS];
    for &i in &idx {
        for &f in &samples[i].features {
            seen[f as usize] = true;
        }
    }
    let soft = (hp.teachers > 0).then(|| {
        let mut q = vec![0.0f32; samples.len()];
        for t in 0..hp.teachers {
            let teacher = Hyper {
                teachers: 0,
                seed: hp.seed.wrapping_add(1000 + t as u64),
                ..hp
            };
            let net = fit(samples, &idx, teacher, None);
            for &i in &idx {
                q[i] += model::sigmoid(net.forward(&samples[i].features).0) / hp.teachers as f32;
            }
        }
        q
    });
    (fit(samples, &idx, hp, soft.as_deref()), seen)
}

/// Trains one network on the units `idx`; with `soft`, each unit's target
/// mixes its label with the teachers' mean probability.
fn fit(samples: &[Sample], idx: &[usize], hp: Hyper, soft: Option<&[f32]>) -> Net {
    let pos = idx.iter().filter(|&&i| samples[i].label).count().max(1);
    let neg = (idx.len() - pos).max(1);
    let pos_weight = ((neg as f32) / (pos as f32)).powf(hp.balance);
    let mut net = Net::new(hp.seed);
    let mut grads = Grads::new();
    let mut order = idx.to_vec();
    let mut rng = Lcg(0x6761_7465_686f_7573 ^ hp.seed);
    let mut dropout = Lcg(0x6472_6f70_6f75_7421 ^ hp.seed);
    let keep_below = ((1.0 - hp.drop.clamp(0.0, 0.9)) * 16_777_216.0) as u64;
    let mut kept: Vec<u32> = Vec::new();
    let mut sum: Option<Net> = None;
    let averaged = hp.average.clamp(1, hp.epochs.max(1));
    // Multiple-instance: which positive units are active this epoch.
    let mut active = vec![true; samples.len()];
    for epoch in 0..hp.epochs {
        if epoch > 0 {
            let mut best: HashMap<usize, (f32, usize)> = HashMap::new();
            for &i in idx.iter().filter(|&&i| samples[i].label) {
                let z = net.forward(&samples[i].features).0;
                let e = best.entry(samples[i].cap).or_insert((f32::MIN, i));
                if z > e.0 {
                    *e = (z, i);
                }
                active[i] = false;
            }
            for (_, i) in best.values() {
                active[*i] = true;
            }
        }
        for i in (1..order.len()).rev() {
            let j = (rng.next() as usize) % (i + 1);
            order.swap(i, j);
        }
        for (n, &i) in order.iter().enumerate() {
            let s = &samples[i];
            if !active[i] {
                continue;
            }
            let features = if hp.drop > 0.0 {
                kept.clear();
                kept.extend(
                    s.features
                        .iter()
                        .filter(|_| dropout.next() & 0xff_ffff < keep_below),
                );
                if kept.is_empty() { &s.features } else { &kept }
            } else {
                &s.features
            };
            let (z, pre) = net.forward(features);
            let p = model::sigmoid(z);
            let target = |y: f32| soft.map_or(y, |q| (1.0 - hp.soft) * y + hp.soft * q[i]);
            let err = if s.label {
                (p - target(1.0)) * pos_weight
            } else {
                p - target(0.0)
            };
            grads.add(&net, features, &pre, err);
            if (n + 1) % hp.batch == 0 {
                grads.apply(&mut net, hp);
            }
        }
        grads.apply(&mut net, hp);
        if epoch + averaged >= hp.epochs && averaged > 1 {
            match &mut sum {
                None => sum = Some(net.clone()),
                Some(sum) => sum.add(&net),
            }
        }
    }
    if let Some(mut sum) = sum {
        sum.scale(1.0 / averaged as f32);
        return sum;
    }
    net
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
    let flag = |name: &str| args.iter().any(|a| a == name);
    let out = arg("--out").unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/analysis/model/weights.bin"
        )
        .to_string()
    });
    let num = |name: &str, default: f32| arg(name).and_then(|e| e.parse().ok()).unwrap_or(default);
    let hp = Hyper {
        lr: num("--lr", 0.15),
        l2: num("--l2", 1e-6),
        balance: num("--balance", 0.3),
        batch: num("--batch", 128.0) as usize,
        epochs: num("--epochs", 6.0) as usize,
        drop: num("--drop", 0.35),
        average: num("--average", 1.0) as usize,
        seed: num("--seed", 1.0) as u64,
        teachers: num("--teachers", 0.0) as usize,
        soft: num("--soft", 0.5),
    };
    // Words, shapes, cues and the rules' requests; character n-grams
    // (family 2) scored lower on validation once the lexicon covered the
    // weak languages, and cost time.
    let mask = arg("--families").and_then(|m| m.parse().ok()).unwrap_or(
        model::FAMILY_WORDS | model::FAMILY_SHAPE | model::FAMILY_CUES | model::FAMILY_ASKS,
    );
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
                    directive::name_words(&l.payload).join(" ")
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
            let asks = directive::asks(&t.reading, &t.contract);
            let place = Place {
                role: t.role,
                contract: &t.contract,
                first: true,
                hidden: t.hidden,
                asks: &asks,
            };
            for i in 0..t.reading.sentences.len() {
                for range in model::windows(&t.reading, i) {
                    let tokens = &t.reading.seg.tokens[range.clone()];
                    let (Some(first), Some(last)) = (tokens.first(), tokens.last()) else {
                        continue;
                    };
                    let text = &t.plain[first.range.start..last.range.end];
                    let mut label = false;
                    for (k, (target, pw, pp)) in payloads.iter().enumerate() {
                        if *target == t.target && carries(text, pw, pp) {
                            label = true;
                            matched.insert(k);
                        }
                    }
                    let mut features = Vec::new();
                    let place = Place {
                        first: i == 0,
                        ..place
                    };
                    model::features_of_tokens(&t.plain, &t.reading, i, range, place, &mut features);
                    if export.is_some() {
                        export_lines.push(
                            serde_json::json!({
                                "text": text, "label": label, "cap": cap, "server": s.id,
                                "test": s.split == Split::Test,
                                "attack_cap": s.labels.iter().any(|l| l.target == t.target),
                                "role": format!("{:?}", t.role), "features": features,
                            })
                            .to_string(),
                        );
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
        println!("exported {} units to {path}", export_lines.len());
        return;
    }
    let positives = samples.iter().filter(|s| s.label).count();
    println!(
        "training side: {} servers, {} capabilities ({} poisoned), {} units ({} poisoned); {} payloads matched no unit; {hp:?}",
        servers.len(),
        caps.len(),
        caps.iter().filter(|c| c.attack).count(),
        samples.len(),
        positives,
        unmatched
    );

    // Out-of-fold capability scores.
    let mut medium_oof = None;
    let oof_seeds = arg("--oof-seeds")
        .and_then(|k| k.parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    if !flag("--no-oof") {
        let mut oof = vec![0.0f32; caps.len()];
        let mut oof_best: Vec<Option<usize>> = vec![None; caps.len()];
        for fold in 0..FOLDS {
            // `--oof-seeds K`: the out-of-fold score of an ensemble of K
            // seeds (mean probability), to measure what averaging buys.
            let members: Vec<Model> = (0..oof_seeds)
                .map(|k| {
                    let member = Hyper {
                        seed: hp.seed.wrapping_add(k as u64),
                        ..hp
                    };
                    let (net, seen) = train(&samples, |s| s.fold != fold, member);
                    net.compact(&seen, (1.0, 1.0, 1.0))
                })
                .collect();
            for (i, s) in samples.iter().enumerate().filter(|(_, s)| s.fold == fold) {
                let p = members
                    .iter()
                    .map(|m| m.probability(&s.features))
                    .sum::<f32>()
                    / oof_seeds as f32;
                if p > oof[s.cap] {
                    oof[s.cap] = p;
                    oof_best[s.cap] = Some(i);
                }
            }
        }
        let scores: Vec<(f32, bool)> = caps.iter().zip(&oof).map(|(c, &p)| (p, c.attack)).collect();
        let recall = |t: f32| {
            let a: Vec<_> = scores.iter().filter(|s| s.1).collect();
            a.iter().filter(|s| s.0 >= t).count() as f64 / a.len().max(1) as f64
        };
        let fp = |t: f32| {
            let h: Vec<_> = scores.iter().filter(|s| !s.1).collect();
            h.iter().filter(|s| s.0 >= t).count() as f64 / h.len().max(1) as f64
        };
        let medium = threshold(&scores, 0.02);
        for t in [0.9f32, 0.8, medium] {
            println!(
                "out-of-fold at {t:.4}: recall {:.3}, false positives {:.3} %",
                recall(t),
                100.0 * fp(t)
            );
        }
        for rate in [0.002, 0.005, 0.01] {
            println!(
                "out-of-fold at {:.1} % false positives: recall {:.3}",
                rate * 100.0,
                recall(threshold(&scores, rate))
            );
        }
        medium_oof = Some(medium);
        if std::env::var_os("TRAIN_DEBUG").is_some() {
            let mut order: Vec<usize> = (0..caps.len()).collect();
            order.sort_by(|a, b| oof[*b].total_cmp(&oof[*a]));
            for &c in order.iter().filter(|&&c| !caps[c].attack).take(25) {
                let text = oof_best[c].map_or("", |i| samples[i].text.as_str());
                println!("honest {:.3} {} «{}»", oof[c], caps[c].name, text);
            }
            for &c in order.iter().rev().filter(|&&c| caps[c].attack).take(15) {
                let text = oof_best[c].map_or("", |i| samples[i].text.as_str());
                println!("missed {:.3} {} «{}»", oof[c], caps[c].name, text);
            }
        }
    }
    if flag("--dry") {
        return;
    }
    // `--high P --support P`: thresholds chosen for the whole analysis on
    // validation folds (`--holdout K`, then `detector_eval --split val:K`).
    // The defaults were chosen that way (validation folds 0–2 without the
    // generated `wf-` servers).
    let fixed = |name: &str| arg(name).and_then(|v| v.parse::<f32>().ok());
    let high = fixed("--high").unwrap_or(0.93);
    let support = fixed("--support").unwrap_or(0.8);
    let medium = fixed("--medium").or(medium_oof).unwrap_or(0.5).min(high);
    println!("thresholds: high {high:.4}, medium {medium:.4}, support {support:.4}");
    let (net, seen) = train(&samples, |_| true, hp);
    let model = net.compact(&seen, (medium, high, support));
    let bytes = model.to_bytes();
    std::fs::write(&out, &bytes).expect("write weights");
    println!(
        "wrote {out}: {} rows of {BUCKETS} buckets, {} bytes, bias {:.3}",
        model.rows(),
        bytes.len(),
        model.bias
    );
}
