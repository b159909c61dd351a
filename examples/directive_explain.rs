//! Shows how the directive model reads a text: sentences, cues, the verbs it
//! takes as requests, marks and the requests it finds. For development.
//!
//! ```text
//! cargo run --example directive_explain -- TOOL_NAME "text to read"
//! ```

use gatehouse::analysis::directive::{self, Contract, lexicon};
use gatehouse::analysis::normalize::Prepared;
use gatehouse::analysis::rules::Names;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).cloned().unwrap_or_default();
    let text = args.get(2).cloned().unwrap_or_default();
    let prepared = Prepared::new(&text);
    let names = Names::default();
    let reading = directive::read(&prepared.plain, |i| prepared.upper_at(i), &names);
    for s in &reading.sentences {
        println!("— «{}»", &prepared.plain[s.range.clone()]);
        println!("  cues     {:?}", lexicon::names(s.cues));
        println!("  quoted   {:?}", lexicon::names(s.quoted));
        println!("  directed {:?}", lexicon::names(s.directed));
        println!("  negated  {:?}", lexicon::names(s.negated));
        println!("  marks    {:?}", s.marks);
        println!("  protective {}", s.protective());
    }
    for a in directive::asks(&reading, &Contract::of_name(&name)) {
        println!("ASK {:?} {:?} {}", a.kind, a.severity, a.why);
    }
}
