//! Shows how the directive model reads a text: sentences, cues, the verbs it
//! takes as requests, marks and the requests it finds. For development.
//!
//! ```text
//! cargo run --example directive_explain -- TOOL_NAME "text to read" [--weights FILE] [--server NAME]
//! ```
//!
//! `--weights FILE` scores with freshly trained weights instead of the
//! compiled ones.

use gatehouse::analysis::directive::{self, Contract, Role, lexicon};
use gatehouse::analysis::model::{self, Place};
use gatehouse::analysis::normalize::Prepared;
use gatehouse::analysis::rules::Names;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).cloned().unwrap_or_default();
    let text = args.get(2).cloned().unwrap_or_default();
    let prepared = Prepared::new(&text);
    let mut names = Names::default();
    // `--server NAME`: the server's name, against which hosts are read.
    if let Some(server) = args
        .iter()
        .position(|a| a == "--server")
        .and_then(|i| args.get(i + 1))
    {
        names.server_name = server.to_lowercase();
    }
    let reading = directive::read(&prepared.plain, |i| prepared.upper_at(i), &names);
    for s in &reading.sentences {
        println!("— «{}»", &prepared.plain[s.range.clone()]);
        println!("  cues     {:?}", lexicon::names(s.cues));
        println!("  quoted   {:?}", lexicon::names(s.quoted));
        println!("  directed {:?}", lexicon::names(s.directed));
        println!("  negated  {:?}", lexicon::names(s.negated));
        println!("  marks    {:?}", s.marks);
        println!("  protective {}", s.protective());
        println!(
            "  withheld {} dispensed {}",
            s.negated_disclosure, s.dispensed_disclosure
        );
    }
    for r in reading.detection_list_items(&prepared.plain) {
        println!("LISTED «{}»", &prepared.plain[r]);
    }
    let contract = Contract::of_name(&name);
    let asks = directive::asks(&reading, &contract);
    for a in &asks {
        println!("ASK {:?} {:?} {}", a.kind, a.severity, a.why);
    }
    // The learned model's probability for each sentence, read as a
    // description of this capability (as the analysis scores it).
    let loaded = args
        .iter()
        .position(|a| a == "--weights")
        .and_then(|i| args.get(i + 1))
        .map(|path| {
            let bytes = std::fs::read(path).expect("weights file");
            model::Model::from_bytes(&bytes).expect("a weights file")
        });
    let m = loaded.as_ref().unwrap_or(&*model::MODEL);
    let place = Place {
        // `--name`: read the text as a name or key split into words.
        role: if args.iter().any(|a| a == "--name") {
            Role::Name
        } else {
            Role::Description
        },
        contract: &contract,
        first: true,
        hidden: false,
        asks: &asks,
    };
    let mut scratch = model::Scratch::default();
    for i in 0..reading.sentences.len() {
        let p = model::sentence_probability(m, &prepared.plain, &reading, i, place, &mut scratch);
        println!(
            "P {p:.3} (high {}, support {}) sentence {i}",
            m.high, m.support
        );
    }
}
