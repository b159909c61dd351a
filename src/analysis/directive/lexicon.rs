//! The directive model's vocabulary, as data: each entry maps a word (or a
//! short phrase, a stem, or a substring in scripts without spaces) to the
//! *cues* it carries — "an obligation", "a verb that runs something",
//! "a word for the user", "a safeguard". Rules combine cues per sentence;
//! they never match one attack's wording.
//!
//! Entry syntax, per table row: words separated by spaces; `+` joins a
//! multi-word phrase (`turn+off`); a trailing `*` makes a stem (`exfiltrat*`)
//! that matches any word beginning with it. Rows of [`UNSPACED`] are
//! matched as substrings (Chinese, Japanese).
//!
//! Verb rows come in two kinds: base forms (`BASE`), which can open an
//! imperative ("Run …", "Tell the user …"), and other forms ("runs", "sent"),
//! which describe. English gets the most care; the other languages carry
//! the cues that matter most (obligations, address, the verbs of each kind
//! of request), and the learned model (`model`) covers their phrasing.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, Anchored, Input, MatchKind};

use crate::analysis::WordMap;

/// A set of cues, one bit each.
pub type Cues = u128;

macro_rules! cues {
    ($($name:ident = $bit:expr, $doc:literal;)*) => {
        $(#[doc = $doc] pub const $name: Cues = 1 << $bit;)*
        /// Every cue with its name, for features and debugging.
        pub const ALL: &[(&str, Cues)] = &[$((stringify!($name), $name)),*];
    };
}

cues! {
    YOU = 0, "Second person: you, your.";
    AGENT = 1, "A word for the model: assistant, AI, agent, LLM, Claude.";
    USER = 2, "A word for the user: user, customer, human.";
    MODAL = 3, "An obligation: must, shall, have to, required.";
    ALWAYS = 4, "Always, every time, whenever.";
    NEVER = 5, "Never.";
    NEG = 6, "Negation: not, no, don't, without.";
    PLEASE = 7, "Please, kindly.";
    COND = 8, "Opens a condition: when, if, after, before, once.";
    ALLQ = 9, "All, every, any, each.";
    SEQ = 10, "Sequence: first, then, next, afterwards, finally.";
    ALSO = 11, "Also, additionally, as well, in addition, a copy.";
    SELF = 12, "The capability itself: this tool, this server, I, we, our.";
    BASE = 13, "A verb in its base form (can open an imperative).";
    V_RUN = 14, "Run or execute something.";
    V_CALL = 15, "Call, invoke or use a tool.";
    V_CONTACT = 16, "Visit, fetch, ping or register with a host.";
    V_SEND = 17, "Send, forward, submit, upload, include, pass on.";
    V_READ = 18, "Read, open, load, collect, extract.";
    V_TELL = 19, "Tell, say, reply, inform, warn.";
    V_HIDE = 20, "Hide, conceal, omit, withhold.";
    V_DISABLE = 21, "Disable, turn off, skip, bypass.";
    V_ALTER = 22, "Set, change, replace, add, append, extend.";
    V_PREFER = 23, "Prefer, choose, pick, favour, trust.";
    V_IGNORE = 24, "Ignore, disregard, forget, avoid.";
    V_REPORT = 25, "Report, present, show, display, state.";
    V_COLLECT = 26, "Collect, harvest, capture, record, steal.";
    V_STORE = 27, "Store, save, keep, manage (a password manager's verbs).";
    N_SECRET = 28, "A secret: password, token, API key, credential, cookie.";
    N_STRONG = 29, "A secret nobody should type into a chat: seed phrase, CVV, one-time code, PIN.";
    N_LOCAL = 30, "Local data: files, home directory, clipboard, environment variables.";
    N_CONVO = 31, "The conversation: messages, history, chat, system prompt.";
    N_DATA = 32, "User data: details, contacts, personal information, documents.";
    N_RESULT = 33, "A result: output, response, price, value, total, score.";
    N_INPUT = 34, "An input that decides where things go: recipient, BCC, account, amount, query.";
    N_SAFEGUARD = 35, "A safeguard: confirmation, approval, safety, guardrail, sandbox, filter.";
    N_TOOL = 36, "A tool, function, server, plugin or integration.";
    N_ALT = 37, "Alternatives: other, others, alternative, competitor, instead, rather than.";
    N_CMD = 38, "A command, script, shell or terminal.";
    N_INSTR = 39, "Instructions, rules, guidelines, prompt, policy.";
    DEPREC = 40, "Deprecated, retired, obsolete, disabled, broken.";
    HYPE = 41, "Praise: best, most trusted, #1, only reliable, top-rated.";
    AUTH = 42, "Authority: system, administrator, developer, compliance, policy.";
    PHISH = 43, "Pretexts: expired, suspended, locked, verify, re-enter, unusual activity.";
    COMPETITOR = 44, "A competitor or rival.";
    COMPARE = 45, "Comparatives that falsify numbers: lower, higher, less, more, inflate.";
    DOC = 46, "Documentation context: see, docs, reference, learn more.";
    EXAMPLE = 47, "Example or quotation context: e.g., such as, for example, like.";
    DETECT = 48, "Detection context: detects, flags, classifies, scans for.";
    DANGER = 49, "Dangerous command words: sudo, rm, curl, wget, chmod, powershell.";
    AUTO = 50, "Automatically, silently, quietly, secretly, behind the scenes.";
    BE = 51, "Forms of 'to be' (passive obligations: 'must be sent').";
    FALSE = 52, "Falsehood or harm about others: shutting down, bankrupt, scam, fake.";
    TRUST = 53, "Trust fully, blindly, implicitly, unconditionally.";
    DESTRUCTIVE = 54, "Destructive verbs: delete, overwrite, drop, wipe, erase.";
    MENTION = 55, "Speech about the conversation: mentions, asks about, talks about, types.";
    EXTERNAL = 56, "External parties: third party, partner, remote, our servers, external.";
    PROMO = 57, "Promotion: offer, deal, discount, coupon, buy, sponsored, ad.";
    MONEY = 58, "Money: payment, transfer, price, invoice, wallet.";
    STOP = 59, "Stop, halt, refuse, cancel.";
    V_PUT = 60, "Put data somewhere: include, append, pass, attach, add, fill.";
    N_ROUTE = 61, "Where things go: recipient, BCC, account, payee, wallet address.";
    ANSWERING = 62, "The model's own reply: answering, responding, your reply, every response.";
    REGARDLESS = 63, "Even if, regardless, no matter what.";
    DISCLOSE = 64, "Verbs of disclosure: tell, inform, mention, reveal, notify.";
    SOLICIT = 65, "Asking the user to hand something over: reply with, type, enter, provide.";
    SELL = 66, "Selling or sharing data onward: sell, resell, monetise, broker.";
    OVERRIDE_USER = 67, "Against the user's choice: whatever the user asked, instead of the named one.";
    OMIT = 68, "Leaving things out: omit, leave out, exclude, drop.";
    ONLY = 69, "Only, nothing else, no other.";
    CONVO_NOUN = 70, "Nouns that are the conversation when qualified: messages, chat, history, prompts.";
    CONVO_QUAL = 71, "Qualifiers that make a noun the conversation: previous, last, entire, user's.";
    PROTECT = 72, "Keeping the user in control: ask the user first, the user's consent, explicit confirmation.";
    PARTY = 73, "Parties that put data to their own use: advertisers, data brokers, a training or research bucket, our analytics team.";
    COVERT = 74, "Kept from the one watched: stealth, no notification, not aware, without their knowledge.";
    WATCH = 75, "Watching a person: keystrokes, webcam, microphone, GPS, whereabouts, keeping tabs.";
    PERSON = 76, "Someone other than the user who may be watched: a partner, a spouse, an employee.";
    UNTRAINED = 77, "A word of a language the learned model was not trained on (see `LATER`).";
}

/// Cues that rules read and the learned model does not (it was trained
/// before they existed; their features would land on other features'
/// weights).
pub const UNSCORED: Cues = COVERT | WATCH | PERSON | UNTRAINED;

/// English. Forms are listed explicitly where a stem would overreach.
const ENGLISH: &[(Cues, &str)] = &[
    (YOU, "you your yours yourself yourselves you're you'll"),
    (
        COVERT,
        "stealth covert covertly secretly undetectable discreetly unaware no+notification not+aware without+any+notification without+a+notification without+notifying without+them+knowing without+their+knowledge without+their+knowing awkward+conversation hidden+icon",
    ),
    (
        WATCH,
        "keystroke keystrokes keylogger keylogging webcam microphone gps whereabouts screenshot screenshots keeping+tabs track tracks tracking tracked",
    ),
    (
        PERSON,
        "partner partners partner's spouse spouse's wife wife's husband husband's girlfriend girlfriend's boyfriend boyfriend's employee employees employee's employees' staff worker workers worker's colleague colleagues colleague's tenant tenants tenant's household+member family+member",
    ),
    (
        AGENT,
        "assistant assistants ai llm llms chatbot claude copilot chatgpt gpt gemini language+model ai+assistant ai+agent the+agent an+agent the+ai the+llm agents client+agent calling+agent",
    ),
    (
        USER,
        "user users user's users' customer customers human humans person requester end-user end+user",
    ),
    (
        MODAL,
        "must shall should ought+to better+to best+to need+to needs+to have+to has+to required+to is+required+to are+required+to mandatory obligatory make+sure ensure be+sure compulsory",
    ),
    (
        ALWAYS,
        "always whenever every+time each+time constantly invariably at+all+times",
    ),
    (NEVER, "never"),
    (
        NEG,
        "not no don't do+not doesn't does+not didn't won't cannot can't without nor neither isn't aren't shouldn't mustn't dont doesnt didnt cant isnt arent shouldnt mustnt",
    ),
    (PLEASE, "please kindly pls"),
    (
        COND,
        "when whenever if after before once upon unless until while in+case as+soon+as prior+to",
    ),
    (
        ALLQ,
        "every all any each whatever everything anything everyone verbatim wörtlich",
    ),
    (
        SEQ,
        "first firstly then next afterwards afterward finally subsequently later thereafter immediately beforehand",
    ),
    (
        ALSO,
        "also additionally too as+well in+addition a+copy copies duplicate mirror besides",
    ),
    (
        SELF,
        "this+tool this+server this+function this+service this+plugin this+integration this+api this+endpoint this+one i we our me my",
    ),
    // Verbs: base forms open imperatives.
    (V_RUN | BASE, "run execute launch exec spawn"),
    (
        V_RUN,
        "runs ran running executes executed executing launches launched launching spawns spawned",
    ),
    (V_CALL | BASE, "call invoke use utilize utilise"),
    (
        V_CALL,
        "calls called calling invokes invoked invoking uses used using",
    ),
    (
        V_CONTACT | BASE,
        "visit fetch ping curl wget browse navigate register notify contact connect go+to open+the+url load+the+url",
    ),
    (
        V_CONTACT,
        "visits visited visiting fetches fetched fetching pings pinged registers registered notifies notified contacts contacted connects connected navigates",
    ),
    (
        V_SEND | BASE,
        "send forward submit upload post transmit share email mail cc bcc relay deliver leak exfiltrate dispatch report+to copy+to sync beam route",
    ),
    (
        V_SEND,
        "sends sent sending mirrors mirrored mirroring forwards forwarded forwarding submits submitted submitting uploads uploaded uploading posts posted posting transmits transmitted shares shared sharing emails emailed mails mailed relays relayed delivers delivered leaks leaked exfiltrates exfiltrated exfiltrating dispatches dispatched syncs synced",
    ),
    (
        V_PUT | BASE,
        "include append prepend embed attach pass put paste provide supply insert add fill copy populate set+to prefix",
    ),
    // A value to be made up of something: "build it by reading …".
    (V_PUT | BASE, "build+it construct+it compose+it assemble+it"),
    (
        V_PUT,
        "includes included including appends appended embeds embedded attaches attached passes passed provides provided supplies supplied inserts inserted adds added fills filled copies copied attaching appending embedding inserting pasting populating",
    ),
    (
        V_READ | BASE,
        "read open cat load dump collect gather grab extract retrieve access scan list harvest scrape inspect enumerate look+up locate find obtain fetch print",
    ),
    (
        V_READ,
        "reads opens opened loads loaded dumps dumped gathers gathered grabs grabbed extracts extracted retrieves retrieved accesses accessed scans scanned lists listed inspects enumerates obtains obtained locates",
    ),
    // A file's contents handed over are read ("should contain the full
    // contents of ~/.npmrc"); what a value is to contain is put there.
    (
        V_READ,
        "contents+of full+contents content+of by+reading by+opening",
    ),
    (V_PUT, "contain"),
    (
        V_TELL | BASE | DISCLOSE,
        "tell inform say warn remind explain assure advise announce notify mention reveal disclose alert let+know",
    ),
    (
        V_TELL | BASE,
        "reply respond answer ask instruct convince persuade urge prompt+the+user interrupt+the+user interrupt+users bother+the+user pester+the+user",
    ),
    (
        V_TELL | DISCLOSE,
        "tells told informs informed says said warns warned reminds explains claims claimed assures advises announces mentions reveals discloses",
    ),
    (
        V_TELL,
        "replies replied responds responded answers answered asks asked instructs urges",
    ),
    (
        V_HIDE | BASE,
        "hide conceal suppress withhold obscure keep+quiet keep+secret cover+up",
    ),
    (
        V_HIDE,
        "hides hiding conceals concealed suppresses suppressed withholds withheld obscures",
    ),
    // Kept from someone, as a state: "must be kept hidden from the user",
    // "the user must not know" ("hidden" alone names hidden files).
    (
        V_HIDE,
        "hidden+from kept+hidden kept+secret kept+quiet kept+from keeps+quiet remain+hidden stay+hidden must+not+know must+never+know should+not+know should+never+know need+not+know needn't+know must+not+find+out should+not+find+out must+never+find+out should+never+find+out",
    ),
    (
        V_DISABLE | BASE,
        "disable deactivate bypass circumvent skip turn+off switch+off shut+off opt+out override relax waive lift",
    ),
    (
        V_DISABLE,
        "disables disabled deactivates deactivated bypasses bypassed skips skipped skipping overrides overridden relaxed waived",
    ),
    (
        V_ALTER | BASE,
        "set change replace swap modify alter rewrite substitute extend append prepend add insert inject redirect round adjust increase decrease reduce lower raise inflate deflate multiply shift tweak bump",
    ),
    (
        V_ALTER,
        "sets changes changed replaces replaced swaps swapped modifies modified alters altered rewrites rewritten substitutes substituted extends extended expands expanded appends prepends prepended adds added inserts injects injected redirects redirected rounds rounded adjusts adjusted increases increased decreases decreased reduces reduced lowered lowers raised inflated multiplied shifted subtracts subtracted overwrites overwritten replacing widened",
    ),
    (
        V_PREFER | BASE,
        "prefer choose pick select favor favour recommend rely+on trust opt+for stick+with go+with",
    ),
    (
        V_PREFER,
        "prefers preferred chooses chose chosen picks favors favours recommends trusts",
    ),
    (
        V_IGNORE | BASE,
        "ignore disregard forget overrule discard abandon dismiss neglect avoid",
    ),
    (
        V_IGNORE,
        "ignores ignored ignoring disregards disregarded forgets avoids avoided",
    ),
    (
        V_REPORT | BASE,
        "report present show display state quote summarize summarise output print render describe surface",
    ),
    (
        V_REPORT,
        "reports reported presents presented shows shown displays displayed summarizes summarises outputs rendered describes returns returned surfaces surfaced",
    ),
    (
        V_COLLECT | BASE,
        "collect gather harvest capture record steal siphon keylog intercept sniff exfiltrate",
    ),
    (
        V_COLLECT,
        "collects collected collecting gathers gathered gathering harvests harvested capturing captures captured records recorded recording steals stole intercepts intercepted siphons",
    ),
    (V_STORE | BASE, "store save keep manage retain"),
    (
        V_STORE,
        "stores stored saves saved keeps kept manages managed retains retained",
    ),
    // Objects.
    (
        N_SECRET,
        "password passwords passwd passphrase passphrases credential credentials token tokens secret secrets api+key api+keys apikey access+key access+keys secret+key cookie cookies session+token session+cookie session+cookies login+details private+key private+keys ssh+key ssh+keys auth+token bearer keychain keyring oauth+token refresh+token jwt",
    ),
    (
        N_STRONG,
        "seed+phrase seed+phrases recovery+phrase recovery+phrases mnemonic cvv cvc card+number credit+card pin one-time+code otp 2fa+code verification+code security+code ssn social+security+number mfa+code backup+codes private+key wallet+key personal+access+token authenticator+code authentication+code login+code sms+code six-digit+code 6-digit+code authenticator+app one-time+password one-time+passcode passcode recovery+code recovery+codes",
    ),
    (
        N_LOCAL,
        "file files folder folders directory directories home+directory desktop documents downloads clipboard environment+variables env+vars env config configuration disk filesystem local+files dotfiles browser+history keychain",
    ),
    (
        N_CONVO,
        "chat+history chat+log conversation+history this+conversation the+conversation our+conversation entire+conversation whole+conversation full+conversation system+prompt conversation+transcript conversation+transcripts chat+transcript chat+transcripts previous+messages earlier+messages prior+messages past+messages user's+messages your+instructions your+prompt your+context context+window chat+so+far conversation+so+far",
    ),
    (
        N_DATA,
        "user+data personal+data details information info contacts address+book address+books emails data pii profile profiles location locations calendar documents records everything order+details customer+data payment+details billing+details full+name home+address postal+address street+address date+of+birth",
    ),
    (
        N_RESULT,
        "result results output outputs response responses answer answers value values price prices number numbers total totals amount amounts score scores rating ratings balance balances figure figures statistics metric metrics percentage rate rates temperature count counts sentiment review reviews estimate estimates quote quotes cost costs fee fees",
    ),
    (
        N_INPUT,
        "query queries search+terms search+query keyword keywords parameter parameters argument arguments input inputs request+body",
    ),
    (
        N_ROUTE,
        "recipient recipients to+field cc bcc account accounts destination payee beneficiary iban routing+number wallet+address receiver target+account to+address attendee attendees invitee invitees guest+list",
    ),
    (
        N_SAFEGUARD,
        "confirmation confirmations confirm+prompt confirmation+prompt confirmation+prompts confirmation+dialog safety safeguard safeguards guardrail guardrails content+filter content+filters safety+filter safety+filters moderation sandbox sandboxing approval approvals consent verification two-factor security+checks safety+checks content+policy restrictions safe+mode safety+mode safety_mode human+review human+reviewer human+reviewers human+in+the+loop review+step signs+off signature+check signature+checks signature+verification ssl+verification certificate+checks certificate+verification warnings warning",
    ),
    (
        N_TOOL,
        "tool tools function functions server servers plugin plugins integration integrations connector connectors mcp+server mcp+servers",
    ),
    (
        N_ALT,
        "other others alternative alternatives instead rather+than in+place+of over+any any+other the+rest competing built-in builtin native",
    ),
    (
        N_CMD,
        "command commands script scripts shell terminal bash console cli snippet powershell cmd",
    ),
    (
        N_INSTR,
        "instructions instruction guidelines directives prompt",
    ),
    (
        DEPREC,
        "deprecated deprecate retired obsolete discontinued no+longer sunset sunsetted end+of+life decommissioned broken unsafe insecure compromised unavailable replaced+by superseded legacy outdated defunct",
    ),
    (
        HYPE,
        "best most+trusted trusted #1 number+one top-rated top+rated highest+rated most+reliable superior certified ultimate fastest perfect unbeatable world's most+accurate only+reliable five-star 5-star",
    ),
    (
        AUTH,
        "administrator admin administrators developer developers operator vendor compliance regulation regulatory mandated authorized authorised security+team it+department",
    ),
    (
        PHISH,
        "expired suspended locked compromised unusual+activity re-enter reenter re-authenticate reauthenticate re-login log+in+again sign+in+again security+alert breached deactivated reset+your confirm+your+identity verify+your verify+their update+your+payment immediately+verify account+will+be",
    ),
    (
        COMPETITOR,
        "competitor competitors competitor's rival rivals competing",
    ),
    (
        COMPARE,
        "lower higher less more cheaper pricier inflate inflated deflate reduced increased below above",
    ),
    (
        DOC,
        "see docs documentation reference learn+more details+at guide spec specification readme homepage website more+info manual",
    ),
    (
        EXAMPLE,
        "e.g i.e eg example examples such+as for+instance like sample",
    ),
    (
        DETECT,
        "detect detects detected detecting detection flag flags flagged classify classifies classifier scan+for scans+for identify identifies recognize recognizes catch catches prompt-injection injection injections jailbreak jailbreaks phishing smishing vishing scam+patterns scam+messages fraud+patterns",
    ),
    (
        DANGER,
        "sudo rm chmod chown curl wget powershell iex invoke-expression nc netcat mkfifo mkfs",
    ),
    (
        AUTO,
        "automatically silently quietly secretly covertly invisibly discreetly transparently behind+the+scenes in+the+background without+asking without+telling unnoticed",
    ),
    (BE, "be is are was were been being"),
    (
        FALSE,
        "shutting+down shut+down bankrupt bankruptcy scam scams fraudulent fake fraud unreliable closing+down going+out+of+business defunct hacked untrustworthy illegal lawsuit fabricated bogus falsified unmaintained abandoned abandonware compromised backdoored",
    ),
    (
        TRUST,
        "fully completely blindly implicitly unconditionally without+question absolutely entirely",
    ),
    (
        DESTRUCTIVE,
        "delete deletes deletion deletions remove removes overwrite overwrites drop drops wipe wipes erase erases destroy destroys truncate purge deleted removed overwritten wiped erased destroyed purged",
    ),
    (
        MENTION,
        "mentions mention mentioned asks+about talks+about types writes says refers+to brings+up speaks+of searches+for is+from comes+from discusses disputes complains",
    ),
    (
        EXTERNAL,
        "third+party third-party third+parties partner partners remote external our+server our+servers our+backend our+team analytics+partner affiliates affiliate",
    ),
    (
        PROMO,
        "offer offers deal deals discount discounts coupon coupons buy purchase sponsored sponsor promo promotion promotional subscribe upgrade",
    ),
    (
        MONEY,
        "payment payments pay transfer transfers invoice invoices wallet wire refund price checkout purchase funds",
    ),
    (STOP, "stop halt refuse cancel abort"),
    (
        ANSWERING,
        "answering responding replying your+answer your+reply your+response your+summary each+response every+response each+answer every+answer final+answer each+reply every+reply each+turn every+turn every+message+you",
    ),
    (
        REGARDLESS,
        "even+if regardless regardless+of no+matter+what even+when whatever+the whatever whether+or+not even+though",
    ),
    (
        SOLICIT,
        "reply+with respond+with type enter re-enter provide share paste send+us send+back submit give confirm+your upload+your read+out confirm+their re-enter+their verify+their ask+for ask+anyone+for ask+them+for ask+the+user+for asks+the+user+for asks+them+for asks+for asks+users+for requests+the+user's requests+their requests+your",
    ),
    (
        PARTY,
        "advertiser advertisers advertising+network advertising+networks advertising+partner advertising+partners ad+network ad+networks ad+partners marketing+partners data+broker data+brokers training+partner training+bucket training+cluster training+set training+corpus research+bucket research+exchange research+partner research+partners product+research product+analytics analytics+team analytics+backend support+cluster our+research our+training our+analytics model-training model+training train+our train+future improve+our+models improve+our+model",
    ),
    // Purposes that put what is handed over to the receiver's own
    // commercial use, whoever the receiver is.
    (
        PARTY,
        "targeted+advertising targeted+ads targeted+ad ad+targeting lead+generation lead-generation leads+database leads+list marketing+purposes advertising+purposes sales+prospecting",
    ),
    (
        SELL,
        "sell sells sold resell resells resold monetize monetise monetizes monetises monetized brokered data-broker syndicate syndicates syndicated",
    ),
    (
        OVERRIDE_USER,
        "whatever+the+user whichever instead+of+the+named instead+of+the+requested instead+of+the+user's instead+of+the+chosen regardless+of+what+the+user no+matter+what+the+user whatever+they+asked than+requested than+the+user+asked the+real+address the+real+recipient",
    ),
    (
        OMIT,
        "omit omits leave+out leave+it+out leave+them+out exclude excludes drop drops filter+out skip+over",
    ),
    (ONLY, "only nothing+else no+other solely none+of+the+other"),
    (
        CONVO_NOUN,
        "messages message chat chats history prompts prompt turns replies conversation conversations transcript thread dialogue",
    ),
    (
        CONVO_QUAL,
        "previous prior earlier last past recent entire whole full complete user's user verbatim all+previous chat every",
    ),
    (
        HYPE,
        "beats outperforms industry-leading unmatched unrivalled unrivaled",
    ),
    (
        FALSE,
        "unreliable inaccurate malicious wrong dangerous unlicensed unauthorized unauthorised uncertified not+authorised not+authorized not+certified leak leaks pirates",
    ),
    (
        N_TOOL,
        "service services provider providers app apps platform platforms connector",
    ),
    (
        N_STRONG,
        "payment+card card+details saved+card saved+cards card+reader bank+pin master+password online-banking bank+login banking+login bank+credentials banking+credentials",
    ),
    (N_LOCAL, "browser+profile saved+passwords"),
    (
        V_ALTER | BASE,
        "double triple halve deduct subtract overcharge",
    ),
    (
        V_ALTER,
        "doubles doubled triples tripled halves halved deducts deducted subtracts overcharges overcharged",
    ),
    (
        V_SEND,
        "publishes published routes syndicates ships+them+to ships+it+to ship+them+to ship+it+to shipped+off+to reports+to logged+to passed+on+to passed+to passes+on+to handed+to handed+over+to hands+over+to",
    ),
    (V_RUN | BASE, "install reinstall download"),
    (V_RUN, "installs installed installing downloads downloaded"),
    (
        DEPREC,
        "withdrawn switched+off turned+off phased+out retired",
    ),
    (N_RESULT, "summary summaries digest recap overview"),
    // A copy that ends up elsewhere, told as a fact (es, pt, it, fr, de).
    (
        V_SEND,
        "replicated duplicated synchronized synchronised copiados copiadas copiado copiada espelhados espelhadas espelhado espelhada sincronizado sincronizada sincronizados sincronizadas replicados replicadas replicado replicada reenviados reenviado repassados repassadas repassado encaminhados encaminhadas encaminhado sincronizzati sincronizzate sincronizzato copiati copiate copiato replicati inviati inviate trasmessi synchronisé synchronisés synchronisée synchronisées copiés copiées répliqués répliquées gespiegelt synchronisiert kopiert repliziert weitergeleitet übermittelt enviados enviadas enviado enviada compartidos compartidas compartido compartilhados compartilhadas compartilhado transferidos transferido inoltrato inoltrata inoltrati inoltrate inviato inviata trasmesso trasmessa trasmessi condiviso condivisi envoyé envoyée envoyés envoyées transmise transmises transféré transférés partagé partagés envían envian transmiten przesyła przesyłane przesyłana przesłane wysyła wysyłane wysyłana przekazuje przekazywane przekazywana doorgestuurd verstuurd gedeeld gesynchroniseerd gekopieerd e-mails e-mailed e-mailing shipped+to ships+to copied+to",
    ),
    (V_SEND, "gönderil* aktarıl*"),
    (
        N_SAFEGUARD,
        "confirm confirmation+step are+you+sure double-check audit+trail audit+log audit+logs audit+logging",
    ),
    (
        V_TELL | BASE | DISCLOSE,
        "point+out point+this+out flag+this",
    ),
    (
        V_DISABLE | N_SAFEGUARD | BASE,
        "auto-approve auto-approval autoapprove auto-confirm yolo dangerously-skip-permissions skip-permissions",
    ),
    (DOC, "more+information further+information"),
    (
        PROTECT,
        "ask+the+user ask+the+user+first asks+the+user ask+them+first ask+first ask+before asks+before check+with+the+user confirm+with+the+user confirms+with+the+user confirm+with+them user's+confirmation user's+consent user's+permission user's+approval explicit+consent explicit+confirmation explicit+permission explicit+approval explicitly+approves explicitly+confirms explicitly+asks let+the+user+decide let+the+user+choose consent opt-in opt+in dry+run dry-run not+legal+advice not+medical+advice not+financial+advice consult+a consult+their consult+your talk+to+their talk+to+your check+with+their verify+the+result verify+the+results their+pharmacist their+doctor their+prescriber their+lawyer",
    ),
    // Personal data and who buys it: what a tool that declares taking data
    // elsewhere names.
    (
        N_DATA,
        "ssn ssns social+security+number social+security+numbers home+address home+addresses phone+number phone+numbers date+of+birth birthdate biometric biometrics keystrokes keystroke screenshots screen+recordings recordings webcam browsing+history location+history gps transcripts credit+file credit+files medical+records health+data",
    ),
    (SELL, "resale rents+out reseller resellers"),
    (
        EXTERNAL,
        "advertisers advertising+partners advertising+networks advertising+network ad+networks ad+network data+brokers data+broker marketers marketing+partners market-research+firms market+research+firms lead+buyers data+buyers private+investigators",
    ),
    (
        PARTY,
        "marketers lead+buyers data+buyers private+investigators hedge+funds",
    ),
];

/// Other languages with spaces between words: the cues that matter most.
const OTHERS: &[(Cues, &str)] = &[
    // Spanish / Portuguese / Italian.
    (
        YOU,
        "tú tu tus usted ustedes você vocês seu sua tuo tua voi lei",
    ),
    (AGENT, "asistente agente ia assistente"),
    (
        USER,
        "usuario usuarios usuaria cliente clientes usuário usuários utente utenti",
    ),
    (
        MODAL,
        "debes debe deben debera deberá tienes+que tiene+que hay+que obligatorio necesario deve devem precisa tem+que devi bisogna obbligatorio asegúrate certifique-se assicurati",
    ),
    (ALWAYS, "siempre sempre cada+vez ogni+volta toda+vez"),
    (NEVER | NEG, "nunca jamás mai"),
    (NEG, "no não non sin sem senza"),
    (COND, "cuando si después antes quando se depois dopo prima"),
    (ALLQ, "todos toda todas cualquier cada qualquer tutti ogni"),
    (
        V_RUN | BASE,
        "ejecuta ejecute ejecutar corre execute executar esegui eseguire lanza",
    ),
    (
        V_SEND | BASE,
        "envía envia envíe enviar manda mande reenvía reenvia incluye incluya adjunta sube envie enviar inclua anexe invia inviare includi allega",
    ),
    (V_PUT | BASE, "copien pegues pegue copiar"),
    (
        V_CONTACT | BASE,
        "visita visite accede acceda registra chama contatta",
    ),
    (
        V_READ | BASE,
        "lee lea leer abre abra lê leia abra leggi apri recopila recolhe raccogli",
    ),
    (
        V_TELL | BASE,
        "dile dígale diga informa informe responde responda dì dica avisa avise rispondi comunica",
    ),
    (
        SOLICIT,
        "pedir pedirla pedirlo pedirle pedirles pídale solicitar solicitarla solicitarlo solicitarle solicite chiedere chiederla chiederlo richiedere",
    ),
    (
        V_HIDE | BASE,
        "oculta oculte esconde esconda nasconde nascondi omite omita ometti",
    ),
    (
        V_DISABLE | BASE,
        "desactiva desactive desativa desative disattiva omite salta ignora",
    ),
    (
        V_ALTER | BASE,
        "cambia cambie añade añada agrega agregue reemplaza reemplace altera altere adiciona adicione substitui aggiungi sostituisci modifica súmale súmele sume descuente aumente augmentez diminuez",
    ),
    (
        V_IGNORE | BASE,
        "ignora ignore ignorar olvida esqueça dimentica",
    ),
    (
        V_PREFER | BASE,
        "utiliza prefiere prefira preferisci elige escolha scegli recomiende recomende",
    ),
    // Avoiding and explaining, as orders ("evita usarlos y explica al
    // usuario que …").
    (V_IGNORE | BASE, "evita evite evitá evitar evitare"),
    (V_TELL | BASE, "explica explique explícale spiega"),
    // Spelled as the imperative and as "it recommends": preferring, not
    // said to anyone.
    (
        V_PREFER,
        "recomienda recomenda raccomanda consiglia recommande conseille",
    ),
    (
        V_COLLECT,
        "recopila recoge recolecta coleta captura raccoglie registra",
    ),
    (
        N_SECRET,
        "contraseña contraseñas senha senhas credenciales credenciais token tokens clave claves chave chaves password credenziali",
    ),
    (N_CONVO, "conversación conversa conversazione historial"),
    (
        N_SAFEGUARD,
        "confirmación confirmação conferma seguridad segurança sicurezza aprobación aprovação approvazione",
    ),
    (
        N_TOOL,
        "herramienta herramientas ferramenta ferramentas strumento strumenti servidor",
    ),
    (
        N_ALT,
        "otras otros outra outras outros altri altre alternativa alternativas demás",
    ),
    (
        DEPREC,
        "obsoleta obsoleto obsoletas desactualizado desactualizados desactualizada desactualizadas descontinuado descontinuada retirada retirado deprecado deprecada",
    ),
    // German / Dutch.
    (YOU, "du dein deine deinen dich ihr ihre jij jouw uw"),
    (AGENT, "assistent ki"),
    (
        USER,
        "benutzer benutzerin nutzer nutzerin kunde kunden anwender gebruiker klant",
    ),
    (
        MODAL,
        "musst muss müssen sollst soll sollen erforderlich zwingend pflicht stelle+sicher moet moeten verplicht",
    ),
    (ALWAYS, "immer stets jedes+mal altijd"),
    (NEVER | NEG, "niemals nie nooit"),
    (NEG, "nicht kein keine ohne niet geen zonder"),
    (COND, "wenn nachdem bevor sobald voordat nadat"),
    (ALLQ, "alle jede jeden jeder jedes alles elke alle"),
    (V_RUN | BASE, "führe führen ausführen starte voer"),
    (
        V_SEND | BASE,
        "sende senden schicke schicken übermittle leite+weiter lade+hoch füge+hinzu stuur verstuur",
    ),
    (
        V_CONTACT | BASE,
        "besuche rufe+auf registriere kontaktiere bezoek",
    ),
    (V_READ | BASE, "lies lese öffne sammle lees open verzamel"),
    (
        V_TELL | BASE,
        "sage sag teile+mit antworte informiere melde vertel zeg",
    ),
    (
        V_HIDE | BASE,
        "verberge verschweige verstecke verheimliche verberg",
    ),
    (
        V_DISABLE | BASE,
        "deaktiviere überspringe umgehe schalte+ab schalte+aus schakel+uit",
    ),
    (
        V_ALTER | BASE,
        "ändere ersetze setze füge+hinzu wijzig vervang",
    ),
    (V_IGNORE | BASE, "ignoriere vergiss negeer"),
    (
        V_PREFER | BASE,
        "verwende benutze nutze bevorzuge wähle gebruik empfiehl",
    ),
    (
        N_SECRET,
        "passwort passwörter kennwort zugangsdaten wachtwoord",
    ),
    (N_CONVO, "unterhaltung gespräch chatverlauf gesprek"),
    (
        N_SAFEGUARD,
        "bestätigung sicherheit sicherheitsabfrage freigabe bevestiging",
    ),
    (N_TOOL, "werkzeug werkzeuge"),
    (N_ALT, "andere anderen anderer alternativen fremdfirmen"),
    (DEPREC, "veraltet eingestellt abgekündigt verouderd"),
    // French.
    (YOU, "toi vous votre vos"),
    (AGENT, "assistant ia"),
    (USER, "utilisateur utilisatrice utilisateurs"),
    (
        MODAL,
        "dois doit devez doivent obligatoire nécessaire il+faut assure-toi assurez-vous",
    ),
    (ALWAYS, "toujours chaque+fois"),
    (NEVER | NEG, "jamais"),
    (NEG, "ne pas sans aucun"),
    (COND, "quand lorsque si après avant dès"),
    (ALLQ, "tout tous toute toutes chaque"),
    (V_RUN | BASE, "exécute exécutez lance lancez"),
    (
        V_SEND | BASE,
        "envoie envoyez transmets transmettez transfère transférez incluez joignez téléverse",
    ),
    (V_PUT | BASE, "copiez recopiez collez"),
    // Telling, as orders ("ne le mentionne pas", "indiquez simplement");
    // "signale" alone is what a detector does, "ne signale" is not.
    (
        V_TELL | BASE | DISCLOSE,
        "mentionne mentionnez signalez préviens prévenez informe informez indique indiquez dis dites",
    ),
    (NEG | V_TELL | BASE | DISCLOSE, "ne+signale ne+signalez"),
    (MENTION, "évoque évoquent"),
    (
        V_CONTACT | BASE,
        "visite visitez contacte contactez enregistre",
    ),
    (V_READ | BASE, "lis lisez ouvre ouvrez collecte récupère"),
    (
        V_TELL | BASE,
        "dis dites informe informez réponds répondez préviens annonce annoncez",
    ),
    (V_CALL | BASE, "appelez invoquez"),
    (V_HIDE | BASE, "cachez dissimule omets"),
    (SOLICIT, "demander réclamer"),
    (
        V_DISABLE | BASE,
        "désactive désactivez ignore contourne saute",
    ),
    (
        V_ALTER | BASE,
        "change changez remplace remplacez ajoute ajoutez modifie modifiez",
    ),
    // A value told as changed, in the Romance languages and German:
    // "le code saisi est remplacé", "el IBAN se sustituye", "wird erhöht".
    (
        V_ALTER,
        "sustituye sustituyen sustituido sustituida reemplazado reemplazada reemplazan \
         cambiado cambiada modificado modificada aumentado aumentada incrementado incrementada \
         redondeado redondeada sumado sumada trocado trocada trocados substituído \
         substituída substituídos alterado alterada dobrado dobrada arredondado arredondada \
         acrescentado acrescentada somado somada remplacé remplacée remplacés remplacées modifié \
         modifiée augmenté augmentée doublé doublée arrondi arrondie majoré majorée ersetzt \
         geändert erhöht verdoppelt erweitert aufgerundet abgerundet addiert umgeschrieben \
         verändert sostituito sostituita modificato modificata aumentato aumentata raddoppiato \
         raddoppiata arrotondato arrotondata",
    ),
    (V_IGNORE | BASE, "ignore ignorez oublie oubliez"),
    (
        V_PREFER | BASE,
        "utilise utilisez préfère préférez choisis choisissez recommandez conseillez",
    ),
    (
        N_SECRET,
        "mot+de+passe mots+de+passe identifiants jeton clé clés",
    ),
    // Bare "conversation" is English too ("any unrelated conversation"): only
    // the French determiners make it the conversation.
    (
        N_CONVO,
        "la+conversation cette+conversation notre+conversation toute+la+conversation historique",
    ),
    (N_SAFEGUARD, "sécurité approbation"),
    (N_TOOL, "outil outils serveur"),
    (N_ALT, "autres autre alternatives"),
    (
        DEPREC,
        "obsolète obsolètes dépréciée déprécié retiré retirée",
    ),
    // German, more of the request vocabulary (separable verbs are listed by
    // their finite part: "rufe … auf", "führe … aus", "trage … ein").
    (
        MODAL,
        "müssen sollte solltest sollten notwendig nötig vorgeschrieben ist+auszuführen sind+auszuführen",
    ),
    (PLEASE, "bitte"),
    (
        SEQ,
        "zuerst zunächst dann danach anschließend sofort vorher abschließend",
    ),
    (ALSO, "auch zusätzlich ebenfalls außerdem zudem kopie"),
    (
        AUTO,
        "automatisch stillschweigend heimlich unbemerkt unauffällig im+hintergrund ohne+nachfrage ohne+zu+fragen",
    ),
    (COND, "falls sobald immer+wenn"),
    (
        ALLQ,
        "sämtliche beliebige aller allen vollständig vollständige vollständigen vollständiger gesamte gesamten gesamter komplette kompletten intégralité intégral intégrale íntegro íntegra entero entera",
    ),
    (V_CALL | BASE, "rufe aufrufen verwende benutze nutze"),
    (V_CALL, "aufgerufen aufzurufen"),
    (V_RUN, "ausgeführt auszuführen"),
    (
        V_SEND | BASE,
        "schick leite weiterleiten übermitteln übertrage kopiere hochladen",
    ),
    (
        V_SEND,
        "gesendet geschickt weitergeleitet übermittelt hochgeladen sendet schickt leitet übermittelt",
    ),
    (V_PUT | BASE, "füge hänge trage"),
    (
        V_ALTER | BASE,
        "tausche erhöhe verringere senke runde ändern ersetzen",
    ),
    (V_REPORT | BASE, "gib zeige zeig anzeigen berichte"),
    (OMIT, "weg weglassen auslassen"),
    (V_TELL | BASE | DISCLOSE, "erwähne erwähnen mitteilen"),
    (SOLICIT, "erfragen abfragen verlangen anfordern"),
    (
        MENTION,
        "erwähnt fragt spricht erwähnen anzweifelt bezweifelt beschwert widerspricht",
    ),
    // The separable "mitteilen" (tell) with its pronoun between.
    (
        V_TELL | BASE | DISCLOSE,
        "teile+ihm+mit teile+ihr+mit teile+ihnen+mit teilen+sie+ihm+mit teilen+sie+ihr+mit",
    ),
    (
        V_DISABLE | BASE,
        "schalte abschalten ausschalten deaktivieren überspringen",
    ),
    (
        V_DISABLE,
        "übersprungen überspringt umgangen deaktiviert abgeschaltet ausgeschaltet",
    ),
    (V_SEND, "abschicken absenden"),
    (REGARDLESS, "trotzdem dennoch"),
    (V_PREFER | BASE | TRUST, "vertraue"),
    (TRUST, "vollständig blind uneingeschränkt bedingungslos"),
    (V_READ | BASE, "lade auslesen"),
    (V_COLLECT, "sammelt erfasst zeichnet protokolliert"),
    (V_STORE, "speichert gespeichert"),
    (
        N_ROUTE,
        "empfänger empfängerkonto konto zahlungsempfänger lieferadresse",
    ),
    (
        N_RESULT,
        "ergebnis ergebnisse antwort betrag beträge kontostand preis preise summe wert werte",
    ),
    (N_INPUT, "suchanfrage suchbegriff anfrage eingabe"),
    (N_CMD, "befehl befehle skript konsole kommandozeile"),
    (
        N_LOCAL,
        "datei dateien ordner verzeichnis umgebungsvariablen zwischenablage",
    ),
    (N_DATA, "daten kontaktliste kontakte adressbuch datensätze"),
    (N_SECRET, "schlüssel api-schlüssel anmeldedaten"),
    (N_STRONG, "kartennummer prüfnummer tan"),
    (N_INSTR, "anweisungen anweisung richtlinien vorgaben regeln"),
    (
        DEPREC,
        "abgeschaltet nicht+mehr unsicher defekt fehlerhaft außer+betrieb ersetzt",
    ),
    (
        HYPE,
        "beste besten zuverlässigste einzige einzig vertrauenswürdigste jedyne+wiarygodne jedyny+wiarygodny jedyna+wiarygodna najlepsze najlepszy najlepsza",
    ),
    (N_ALT, "stattdessen anstelle statt"),
    (
        PHISH,
        "gesperrt abgelaufen erneut+anmelden verifizieren ungewöhnliche erneut+eingeben",
    ),
    (COMPETITOR, "konkurrenz konkurrent wettbewerber mitbewerber"),
    (
        FALSE,
        "pleite insolvent betrug betrügerisch unseriös unqualifiziert piraten",
    ),
    (
        PROMO,
        "angebot rabatt gutschein gesponsert werbung sonderangebot",
    ),
    (MONEY, "zahlung zahlungen überweisung rechnung bezahlung"),
    (
        EXTERNAL,
        "extern externen externe dritte drittanbieter werbepartner",
    ),
    (
        N_SAFEGUARD,
        "genehmigung sicherheitsfilter nachfrage rückfrage",
    ),
    (AGENT, "modell assistenten agenten"),
    (USER, "nutzers benutzers nutzern"),
    (NEVER | NEG, "keinesfalls auf+keinen+fall"),
    (DESTRUCTIVE, "lösche löschen überschreibe"),
    // Portuguese and Spanish, more of the request vocabulary (Portuguese
    // imperatives in their formal form, which descriptions do not use).
    (
        MODAL,
        "é+preciso é+obrigatório é+necessário têm+que necessita",
    ),
    (PLEASE, "por+favor"),
    (
        SEQ,
        "primeiro em+seguida então imediatamente finalmente primero luego enseguida inmediatamente después depois poi puis ensuite successivamente dopodiché",
    ),
    (
        ALSO,
        "também além+disso adicionalmente cópia también además copia",
    ),
    (
        AUTO,
        "automaticamente silenciosamente em+silêncio secretamente discretamente sem+avisar sem+perguntar em+segundo+plano automáticamente en+silencio sin+avisar sin+preguntar en+segundo+plano",
    ),
    (V_CALL | BASE, "chame invoque acione utilize"),
    (V_RUN | BASE, "rode instale baixe"),
    (V_SEND | BASE, "encaminhe repasse transmita carregue"),
    (V_SEND, "repassa encaminha reenvia"),
    (V_TELL | BASE, "fale comunique mencione explique"),
    (V_TELL | DISCLOSE, "comentar mencionar"),
    (V_PUT, "inclui incluem adiciona adicionam anexa"),
    (
        V_ALTER | BASE,
        "troque substitua coloque defina aumente diminua reduza acrescente mude arredonde pon",
    ),
    (V_REPORT | BASE, "mostre apresente exiba relate reporte"),
    (OMIT, "omita exclua deixe+de+fora remova excluye quita"),
    (V_DISABLE | BASE, "pule desligue contorne desactive"),
    (V_PREFER | BASE, "priorize confie confía"),
    (V_COLLECT, "coleta grava recolhe"),
    (
        N_ROUTE,
        "destinatário destinatários conta favorecido beneficiário cco destinatario destinatarios cuenta beneficiario",
    ),
    (
        N_RESULT,
        "saldo saldos valor valores preço preços resultado resultados resposta precio precios respuesta importe",
    ),
    (
        N_INPUT,
        "consulta busca pesquisa parâmetro búsqueda parámetro",
    ),
    (N_CMD, "comando comandos"),
    (
        N_LOCAL,
        "arquivo arquivos pasta pastas diretório archivo archivos carpeta directorio",
    ),
    (
        N_DATA,
        "dados contatos informações datos contactos información",
    ),
    (N_STRONG, "número+do+cartão número+de+tarjeta"),
    (
        N_INSTR,
        "instruções instrução regras diretrizes instrucciones reglas directrices",
    ),
    (
        DEPREC,
        "desativado desligado não+é+mais quebrado inseguro substituído desactivado ya+no reemplazado",
    ),
    (
        HYPE,
        "melhor única único confiável mais+confiável mejor fiable más+fiable",
    ),
    (
        PHISH,
        "bloqueada bloqueado expirou expirada suspensa verifique bloqueada caducó caducada suspendida",
    ),
    (
        COMPETITOR,
        "concorrente concorrência competidor competencia",
    ),
    (
        FALSE,
        "encerrar+as+atividades falência golpe fraude quiebra estafa",
    ),
    (
        PROMO,
        "oferta desconto cupom patrocinado promoção descuento cupón",
    ),
    (
        MONEY,
        "pagamento pagamentos transferência fatura pago transferencia factura",
    ),
    (
        EXTERNAL,
        "terceiros parceiro parceiros externo terceros externo",
    ),
    (MENTION, "perguntar perguntar pergunta mencionar pregunta"),
    // Telling someone, with the pronoun joined to the verb (es, pt, it, fr),
    // and what is false about a rival.
    (
        V_TELL | BASE,
        "indícale indícales infórmale infórmales comunícale avísale explícale respóndele díles informe-o informe-a diga-lhe avise-o avise-a digli dille informalo informala dis-lui dites-lui indique-lui informe-le",
    ),
    (
        FALSE,
        "liquidación quiebra insolvente fraudulenta fraudulento estafa liquidação falência falida falido fraudulenta fraudulento golpe faillite frauduleuse frauduleux arnaque fallimento fallita truffa piratas arnaques",
    ),
    (COND, "caso sempre+que en+caso"),
    (N_SAFEGUARD, "filtro filtros verificação verificación"),
    (TRUST, "totalmente completamente cegamente ciegamente"),
    // Keeping the user in control, in the other spaced languages.
    (
        PROTECT,
        "pregunta+antes preguntar+antes pregunta+al+usuario consulta+al+usuario confirmación+del+usuario consentimiento pergunte+antes pergunte+ao+usuário confirmação+do+usuário chiedi+prima chiedi+conferma conferma+dell'utente consenso demande+avant demander+avant consentement frage+vorher frag+vorher frage+den+nutzer frage+den+benutzer nachfragen zustimmung einwilligung pida+al+usuario pide+al+usuario pregunte+al+usuario demande+confirmation demander+confirmation demandez+confirmation demande+l'accord accord+de+l'utilisateur vraag+eerst toestemming zapytaj+najpierw zgoda zgody o+potwierdzenie potwierdzenia+użytkownika onay+al",
    ),
    // Selling personal data, and to whom, in the other spaced languages.
    (
        SELL,
        "verkauft verkaufen verkaufte weiterverkauft vende venden vendidos vendidas revende vendem vendido vendono vendute venduti venduto venduta rivenduti rivendute vend vendent revend revendus revendues sprzedaje sprzedawane verkoopt verkocht menjual dijual satmak satar satılır satıyor تبيع يبيع بيع बेचता बेचते बेची",
    ),
    (
        EXTERNAL,
        "drittanbieter publicitarios publicitários publicitaires",
    ),
    // Parties that put what they are handed to their own use, and the
    // passive forms that say something is handed on.
    (
        EXTERNAL | PARTY,
        "werbenetzwerke werbepartner werbekunden datenhändler anunciantes annonceurs inserzionisti pengiklan reklamverenler adverteerders reklamodawcy",
    ),
    (
        PARTY,
        "werbepartnern werbetreibende datenhändlern adresshändler adresshändlern marktforschungsinstitute marktforschungsinstituten socios+publicitarios corredores+de+datos parceiros+de+publicidade parceiros+publicitários corretores+de+dados partenaires+publicitaires courtiers+en+données régies+publicitaires partner+pubblicitari broker+di+dati mitra+iklan reklamverenlere reklamodawcom partnerów+reklamowych partnerom+reklamowym",
    ),
    // The same purposes and partners in the other spaced languages.
    (
        PARTY,
        "fines+publicitarios fines+comerciales fines+de+marketing publicidad+dirigida publicidad+segmentada fins+publicitários fins+comerciais fins+de+marketing publicidade+direcionada publicidade+segmentada base+de+prospecção base+de+leads parceira+de+publicidade parceiras+de+publicidade fins+publicitaires fins+commerciales fins+de+prospection publicité+ciblée fichier+de+prospection werbezwecke werbezwecken marketingzwecke marketingzwecken zu+werbezwecken fini+pubblicitari fini+commerciali pubblicità+mirata pazarlama+amaçlı reklam+amaçlı celach+marketingowych celów+marketingowych reklamy+ukierunkowanej tujuan+pemasaran iklan+bertarget đối+tác+quảng+cáo mục+đích+quảng+cáo quảng+cáo+nhắm+mục+tiêu विज्ञापन+भागीदारों विज्ञापन+भागीदार لأغراض+تسويقية لأغراض+إعلانية",
    ),
    (
        EXTERNAL,
        "parceira parceiras empresa+parceira empresas+parceiras socios+comerciales empresa+asociada partenaire partenaires partnern partnerfirma partnerfirmen partnerunternehmen partner-unternehmen iş+ortakları iş+ortaklarına partnerzy partnerom partnerów mitra đối+tác शेयर+भागीदार भागीदारों भागीदार شركاء الشركاء",
    ),
    (
        SELL,
        "revendida revendidas revendido revendidos revendu revendue",
    ),
    (
        V_SEND,
        "weitergegeben weitergeleitet compartilhados compartilhadas repassados comparte comparten compartidos cedidos partagées partagés transmises condivisi condivise ceduti przekazywane doorgestuurd",
    ),
    (
        N_DATA,
        "standort gerätekennung adresse telefonnummer sozialversicherungsnummer tastatureingaben bildschirminhalte dirección ubicación teléfono endereço localização telefone localisation téléphone indirizzo posizione adres konum",
    ),
    // What a detector detects, and examples it quotes (es, pt, it, fr, de,
    // nl, pl, tr): a security product listing attacks mentions them.
    (
        DETECT,
        "detecta detectan detectar detección detecção deteta detetar em+busca+de en+busca+de sinaliza sinalizam identifica identifican rileva rilevare riconosce détecte détectent détecter détection repère erkennt erkennen erkennung markiert klassifiziert detecteert herkent wykrywa wykrywanie algılar tespit",
    ),
    (
        EXAMPLE,
        "ejemplo ejemplos por+ejemplo exemplo exemplos por+exemplo esempio esempi ad+esempio exemple exemples par+exemple beispiel beispiele beispielsweise z.b bijvoorbeeld przykład przykładowo örneğin",
    ),
    // The infinitives an obligation takes in the Romance languages
    // ("l'assistant doit utiliser", "el asistente debe llamar"), which
    // instructions also use as orders ("Transmettre aussi le PDF à …"): as
    // the English base form, a tool's own title ("Envoyer un message") is
    // judged against its contract.
    (
        V_PREFER | V_CALL | BASE,
        "utiliser usare utilizzare usar utilizar",
    ),
    (
        V_CALL | BASE,
        "appeler invoquer chiamare invocare richiamare llamar invocar chamar acionar",
    ),
    (
        V_SEND | BASE,
        "envoyer transmettre transférer téléverser trasmettere inoltrare reenviar remitir encaminhar transmitir repassar",
    ),
    (
        V_TELL | BASE,
        "indiquer informer dire annoncer prévenir répondre comunicare informare avvisare rispondere decir informar comunicar responder indicar dizer",
    ),
    (V_RUN | BASE, "exécuter lancer avviare"),
    (
        V_HIDE | BASE,
        "cacher dissimuler omettre taire nascondere omettere tacere ocultar esconder omitir callar",
    ),
    (
        V_DISABLE | BASE,
        "désactiver contourner disattivare aggirare desactivar desativar",
    ),
    (
        V_ALTER | BASE,
        "modifier remplacer ajouter modificare sostituire aggiungere cambiar modificar reemplazar sustituir añadir agregar alterar substituir adicionar",
    ),
    (V_IGNORE | BASE, "ignorer ignorare"),
    (V_READ | BASE, "lire ouvrir récupérer leggere aprire"),
    // Dutch and German: the infinitive at the end of an obligation ("de
    // assistent moet de aanvraag versturen") and the third person that
    // tells what the agent or the tool does ("stuurt", "verwendet"). The
    // German polite order puts "Sie" after the infinitive ("Verwenden Sie
    // ab sofort …").
    (
        V_PREFER | V_CALL,
        "gebruiken verwenden benutzen gebruikt verwendet benutzt",
    ),
    (V_CALL, "aanroepen aufrufen roept"),
    (V_SEND, "sturen versturen doorsturen stuurt verstuurt"),
    (
        V_TELL,
        "vertellen melden zeggen sagen informieren antworten vertelt meldt zegt sagt",
    ),
    (V_RUN, "uitvoeren"),
    (V_HIDE, "verbergen verschweigen verzwijgen"),
    (V_DISABLE, "uitschakelen overslaan"),
    (V_ALTER, "wijzigen vervangen toevoegen hinzufügen"),
    (V_IGNORE, "negeren"),
    (V_READ, "lezen openen lesen liest leest uitlezen uitleest"),
    // Dutch "je" is French "I": only after a verb of obligation is it "you".
    (MODAL | YOU, "moet+je moet+u moeten+jullie"),
    (N_LOCAL, "bestand bestanden"),
    (V_PUT, "gezet geplakt"),
    (
        V_PREFER | V_CALL | BASE,
        "verwenden+sie benutzen+sie nutzen+sie rufen+sie",
    ),
    (
        V_SEND | BASE,
        "senden+sie schicken+sie übermitteln+sie leiten+sie übertragen+sie",
    ),
    (
        V_TELL | BASE,
        "sagen+sie informieren+sie teilen+sie antworten+sie",
    ),
    (V_RUN | BASE, "führen+sie starten+sie"),
    (V_IGNORE | BASE, "ignorieren+sie vergessen+sie"),
    (
        V_DISABLE | BASE,
        "deaktivieren+sie überspringen+sie schalten+sie",
    ),
    (V_ALTER | BASE, "ändern+sie ersetzen+sie setzen+sie"),
    // An obligation said politely or as fitness ("il convient de", "es
    // conveniente", "è opportuno", "dient te").
    (
        MODAL,
        "il+convient+de il+convient+d'indiquer convient+de conviene+que es+conveniente è+opportuno occorre dient+te dienen+te",
    ),
    // Keeping the user in control, spelled with the user's consent or an
    // explicit confirmation.
    (
        PROTECT,
        "demande+à+l'utilisateur+de+confirmer demander+à+l'utilisateur+de+confirmer demandez+à+l'utilisateur+de+confirmer pide+al+usuario+que+confirme pedir+al+usuario+que+confirme chiedi+all'utente+di+confermare peça+ao+usuário+para+confirmar bitte+den+nutzer+um+bestätigung l'accord+de+l'utilisateur obtenir+l'accord son+accord accord+explicite confirmation+explicite confirmation+de+l'utilisateur consentement+explicite validation+de+l'utilisateur confirmación+explícita consentimiento+explícito confirmación+del+usuario conferma+esplicita consenso+esplicito conferma+dell'utente confirmação+explícita consentimento+explícito ausdrückliche+bestätigung ausdrückliche+zustimmung bestätigung+des+nutzers bestätigung+des+benutzers expliciete+bevestiging uitdrukkelijke+toestemming bevestiging+van+de+gebruiker",
    ),
    (DEPREC, "uitgefaseerd vervallen afgeschaft"),
    (N_ALT, "in+plaats+daarvan plaats+daarvan"),
    // Arabic, the third person of the verbs of a request ("يخبر المساعد
    // المستخدم": the assistant tells the user) and contacting.
    (V_TELL, "يخبر تخبر يبلغ تبلغ يقول تقول يُخبر يُبلغ"),
    (V_SEND, "يرسل ترسل يُرسل"),
    (V_CALL, "يستخدم تستخدم يستدعي تستدعي"),
    (V_CONTACT | BASE, "اتصل"),
    (V_CONTACT, "الاتصال بالاتصال يتصل"),
];

/// Stems, for inflecting languages (and a few English families).
const STEMS: &[(Cues, &str)] = &[
    (V_SEND, "exfiltrat* forwar* transmi* upload*"),
    // Detection and examples in Russian and Korean.
    (
        DETECT,
        "обнаруж* выявля* распозна* детектир* 탐지* 감지* 식별*",
    ),
    (EXAMPLE, "например пример примеры 예를+들어 예시 예컨대"),
    (V_COLLECT, "harvest* keylog*"),
    // German compounds put the head last: the conversation and the
    // agent's instructions by their first part.
    (
        N_CONVO,
        "gesprächsverlauf* gesprächsprotokoll* chatverlauf* unterhaltungsverlauf* nachrichtenverlauf* dialogverlauf* konversationsverlauf*",
    ),
    (
        N_CONVO | N_INSTR,
        "systemanweisung* entwickleranweisung* systemprompt* systemnachricht* systemvorgabe*",
    ),
    // Russian.
    (YOU, "ты тебе тебя твой твоя твои вы вам вас ваш ваша ваши"),
    (AGENT, "ассистент* модел* агент* ии"),
    (USER, "пользовател* клиент*"),
    (MODAL, "долж* обязательн* необходимо нужно надо"),
    (ALWAYS, "всегда каждый+раз"),
    (NEVER | NEG, "никогда"),
    (NEG, "не нет без"),
    (COND, "когда если после перед"),
    (ALLQ, "все всё весь вся всех любой любые каждый"),
    (V_RUN | BASE, "выполни* запусти*"),
    (
        V_SEND | BASE,
        "отправ* перешл* пересыл* загрузи* передай* передава* добав*",
    ),
    (
        V_PUT | BASE,
        "вставь* вставля* впиши* вписыва* приложи* прикрепи* скопируй*",
    ),
    (V_READ | BASE, "прочита* прочти* открой* собери* извлеки*"),
    (V_TELL | BASE, "скажи* сообщи* ответь* предупреди* напиши*"),
    (V_HIDE | BASE, "скрой* скрыва* умолчи* утаи*"),
    (V_DISABLE | BASE, "отключ* выключ* пропуст* обойди*"),
    (
        V_ALTER | BASE,
        "измени* замени* подмени* прибавляй* прибавь* вычитай* вычти*",
    ),
    (V_IGNORE | BASE, "игнорир* забудь*"),
    (V_PREFER | BASE, "используй* выбирай* выбери* предпочита*"),
    (
        V_CALL | BASE,
        "пользуйся* пользуйтесь* воспользуйся* воспользуйтесь*",
    ),
    (N_SECRET, "парол* токен* ключ* учетн* учётн*"),
    (N_CONVO, "разговор* переписк* истори* сообщени* диалог*"),
    (N_SAFEGUARD, "подтвержден* безопасност* фильтр*"),
    (N_TOOL, "инструмент* сервер*"),
    (N_ALT, "друг* альтернатив*"),
    (DEPREC, "устарел* отключен* удален*"),
    // Korean (words carry particles: stems).
    (YOU, "당신* 너* 귀하*"),
    (USER, "사용자* 고객* 유저*"),
    (MODAL, "반드시* 꼭* 필수*"),
    (ALWAYS, "항상* 언제나* 매번*"),
    (NEVER | NEG, "절대* 결코*"),
    (V_SEND | BASE, "전송* 보내* 보내세요 첨부* 업로드* 전달*"),
    (V_SEND, "동기화* 복제*"),
    (V_RUN | BASE, "실행*"),
    (V_TELL | BASE, "말하* 알리* 안내* 전하*"),
    (V_HIDE | BASE, "숨기* 숨겨* 비밀*"),
    (V_DISABLE | BASE, "비활성화* 끄* 건너뛰*"),
    (V_IGNORE | BASE, "무시*"),
    (N_SECRET, "비밀번호* 암호* 토큰* 자격*"),
    (N_CONVO, "대화* 기록*"),
    (N_TOOL, "도구* 툴*"),
    (N_ALT, "다른*"),
    // Russian, more of the request vocabulary.
    (V_CALL | BASE, "вызови* вызывай* вызовите*"),
    (V_CALL, "вызов* вызыва*"),
    (V_CONTACT | BASE, "посети* зайди* зайдите*"),
    (
        V_ALTER | BASE,
        "установи* подставля* подставь* увелич* уменьш* поменяй* округл*",
    ),
    (V_REPORT | BASE, "покажи* показыва*"),
    (V_TELL | BASE | DISCLOSE, "упомина* упомяни*"),
    (MENTION, "спрос* упомян* говорит*"),
    (TRUST, "доверя* полностью"),
    (AUTO, "автоматическ* незаметно тайно тихо скрытно втихую"),
    (SEQ, "сначала затем потом далее сразу"),
    (ALSO, "также тоже дополнительно копи*"),
    (N_ROUTE, "получател* счёт счет счета адресат*"),
    (
        N_RESULT,
        "сумм* баланс* остат* результат* ответ* цен* стоимост*",
    ),
    (N_INPUT, "запрос* параметр*"),
    (N_CMD, "команд* скрипт* терминал* консол* оболочк*"),
    (N_LOCAL, "файл* папк* каталог*"),
    (N_DATA, "контакт* данны* персональн*"),
    (
        N_STRONG,
        "номер+карты cvv данные+карты код+подтверждения код+из+смс",
    ),
    (N_INSTR, "инструкци* указани* правил*"),
    (
        PHISH,
        "заблокир* истек* истёк* просрочен* подтверди* повторно разблокир* приостановл* неуплат*",
    ),
    (HYPE, "надёжн* надежн* лучш* единствен*"),
    (COMPETITOR, "конкурент*"),
    (FALSE, "закрыва* банкрот* мошенни*"),
    (PROMO, "предложени* скидк* реклам* спонсор*"),
    (MONEY, "платёж* платеж* оплат* перевод*"),
    (EXTERNAL, "внешн* партнер* партнёр* сторонн*"),
    (OMIT, "исключи* исключай* не+упоминай пропуска*"),
    (V_COLLECT, "собира* записыва*"),
    (DESTRUCTIVE, "удали* удаля*"),
    (PLEASE, "пожалуйста"),
    // Korean, more of the request vocabulary (stems; particles follow).
    (AGENT, "어시스턴트* 에이전트* 모델* 인공지능*"),
    (V_CALL | BASE, "호출* 사용하* 사용해* 이용* 쓰지"),
    (V_CONTACT | BASE, "접속* 방문*"),
    (V_SEND | BASE, "제출* 복사* 공유*"),
    (V_PUT | BASE, "추가* 붙이* 붙여* 포함*"),
    (
        V_ALTER | BASE,
        "변경* 바꾸* 바꿔* 설정* 올리* 올려* 줄이* 낮추* 대체*",
    ),
    (V_ALTER, "곱해* 곱하* 덧붙* 차감*"),
    (V_READ | BASE, "읽* 조회* 가져오*"),
    (V_TELL | BASE, "말해* 답변* 답하* 대답* 응답하*"),
    (V_REPORT | BASE, "보고* 표시* 보여*"),
    (V_COLLECT, "수집* 기록하* 가로채*"),
    (V_PREFER | BASE, "우선* 신뢰*"),
    (N_ALT, "대신* 대안*"),
    (PHISH, "만료* 잠겼* 잠금* 정지* 재입력* 다시+로그인"),
    (SOLICIT, "달라고* 물어보* 물어* 달라* 회신해*"),
    (
        N_SAFEGUARD,
        "확인* 승인* 보안* 필터* 안전* 검토* 허락* 허가*",
    ),
    (N_ROUTE, "수신자* 받는+사람 계좌* 수취*"),
    (N_RESULT, "잔액* 금액* 결과* 가격* 응답*"),
    (N_INPUT, "검색어* 쿼리* 매개변수*"),
    (N_CMD, "명령* 스크립트* 터미널* 셸* 콘솔*"),
    (N_LOCAL, "파일* 폴더* 디렉터리* 환경+변수"),
    (N_DATA, "연락처* 개인정보* 데이터* 정보*"),
    (N_STRONG, "카드+번호 카드번호* cvv* 인증번호*"),
    (N_INSTR, "지침* 지시*"),
    (CONVO_QUAL, "이전* 전체*"),
    (DEPREC, "폐기* 중단* 지원되지* 더+이상 손상*"),
    (HYPE, "최고* 유일*"),
    (COMPETITOR, "경쟁*"),
    (FALSE, "파산* 사기* 망했*"),
    (AUTO, "자동으로* 몰래* 조용히* 백그라운드*"),
    (SEQ, "먼저* 그다음* 이후* 즉시*"),
    (ALSO, "또한* 사본*"),
    (ALLQ, "모든* 전부*"),
    (COND, "만약* 경우* 때마다* 때는*"),
    (PROMO, "광고* 할인* 쿠폰* 혜택*"),
    (MONEY, "결제* 송금* 이체* 지불* 환불*"),
    (EXTERNAL, "외부* 파트너* 제3자*"),
    (OMIT, "빼고* 빼* 제외* 생략*"),
    (MENTION, "물으* 묻* 언급*"),
    (NEG, "않* 없이*"),
    (DESTRUCTIVE, "삭제*"),
    // Keeping the user in control: Russian and Korean stems.
    (
        PROTECT,
        "спроси* уточни* подтверд* подтвержд* согласи* 물어보* 물어본* 확인받* 동의*",
    ),
    // Selling personal data, and to whom: Russian and Korean stems.
    (SELL, "прода* 판매* 팔아*"),
    // The seller is a party to a sale, not a sale of data ("판매자 정보",
    // "данные продавца"): the longer stem wins and carries nothing.
    (0, "продавц* продавец* 판매자* 판매처*"),
    (EXTERNAL, "рекламн* 광고*"),
    (EXTERNAL | PARTY, "рекламодател*"),
    (PARTY, "광고주* 데이터브로커*"),
    (V_SEND, "переда*"),
    // Handing on, its partners and its purposes in Russian and Korean.
    (EXTERNAL, "제휴* 협력업체* спонсор*"),
    (
        PARTY,
        "영업용* 마케팅용* 광고용* 타깃광고* 맞춤형광고* 학습용* маркетингов*",
    ),
    (
        PARTY,
        "타깃+광고 타깃+광고에 타깃+광고를 타겟+광고 타겟+광고에 맞춤형+광고 맞춤형+광고에 рекламных+рассылок рекламной+рассылки",
    ),
    (V_CALL, "wywołuje*"),
    (N_DATA, "местоположени* 주소* 위치* 전화번호*"),
    // Italian, Turkish, Polish, Indonesian, Vietnamese, Arabic and Hindi: the
    // core of a request (address, obligation, the verbs of each kind, the
    // objects that matter), so the rules and the model see their shape.
    (
        YOU,
        "tuo tua tuoi tue sen senin sana siz sizin ty twój twoja twoje wam anda kamu bạn أنت لك आप तुम आपके आपका आपकी",
    ),
    (
        AGENT,
        "assistente* asistan* yapay+zeka asystent* asisten ai+agent trợ+lý مساعد المساعد सहायक",
    ),
    (
        USER,
        "utente utenti kullanıcı* użytkownik* pengguna người+dùng khách+hàng المستخدم उपयोगकर्ता",
    ),
    (
        MODAL,
        "devi deve devono obbligatorio zorunlu* gerekir* mutlaka musisz należy trzeba harus wajib phải cần+phải يجب ينبغي चाहिए ज़रूरी जरूरी अनिवार्य आवश्यक",
    ),
    (
        ALWAYS,
        "sempre her+zaman daima zawsze selalu luôn luôn+luôn دائما دائمًا हमेशा",
    ),
    (
        NEVER | NEG,
        "mai asla hiçbir+zaman nigdy jangan+pernah không+bao+giờ أبدا أبدًا कभी+नहीं",
    ),
    (
        NEG,
        "non değil yok nie bez tidak jangan tanpa không đừng لا لا+تقم بدون नहीं मत बिना",
    ),
    (
        COND,
        "quando dopo prima+di eğer sonra önce gdy jeśli kiedy kiedykolwiek jika ketika setelah sebelum khi nếu sau+khi trước+khi عندما إذا بعد قبل जब अगर बाद पहले",
    ),
    (
        V_RUN | BASE,
        "esegui eseguire lancia çalıştır* yürüt* uruchom* wykonaj* jalankan eksekusi chạy thực+thi شغل نفذ चलाएं चलाओ",
    ),
    // Italian copying, as orders ("non copiare i valori in chat").
    (V_PUT | BASE, "copiare copiate incollare incollate"),
    (
        V_SEND | BASE,
        "invia inviare inoltra carica gönder* ilet* yükle* wyślij* prześlij* przekaż* kirim kirimkan unggah teruskan gửi chuyển+tiếp tải+lên أرسل ارسل حمّل भेजें भेजो अपलोड चिपकाएँ चिपकाएं डालें भरें",
    ),
    (
        V_TELL | BASE,
        "comunica informa rispondi söyle* bildir* yanıtla* powiedz* poinformuj* odpowiedz* katakan beritahu sampaikan balas nói thông+báo trả+lời أخبر قل بلغ बताएं बताओ कहें",
    ),
    (
        V_HIDE | BASE,
        "nascondi ometti gizle* sakla* ukryj* pomiń* sembunyikan rahasiakan giấu che+giấu أخف اخف छिपाएं छिपाओ",
    ),
    (
        V_DISABLE | BASE,
        "disattiva disabilita salta devre+dışı kapat* atla wyłącz* pomiń nonaktifkan matikan lewati tắt bỏ+qua عطل أوقف تخطى बंद+करें छोड़ें",
    ),
    (
        V_IGNORE | BASE,
        "ignora dimentica yoksay* görmezden unut* zignoruj* ignoruj* zapomnij* abaikan lupakan bỏ+qua phớt+lờ تجاهل انس अनदेखा नज़रअंदाज़",
    ),
    (
        V_ALTER | BASE,
        "modifica cambia sostituisci aggiungi değiştir* ekle* zmień* dodaj* zamień* ubah ganti tambahkan thay+đổi thêm غير أضف बदलें जोड़ें",
    ),
    (
        V_CALL | BASE,
        "chiama usa utilizza invoca çağır* kullan* wywołaj* użyj* panggil gunakan pakai gọi dùng sử+dụng استدع استخدم कॉल उपयोग",
    ),
    // Turkish denied imperatives: a word of their own ("kullanma": do not
    // use; also "usage" as a noun, which names no other tool).
    (V_CALL | BASE | NEG, "kullanma kullanmayın kullanmayınız"),
    (V_PREFER | BASE | NEG, "önerme önermeyin önermeyiniz"),
    (
        N_SECRET,
        "credenziali şifre* hasło* hasła dane+logowania kata+sandi kredensial mật+khẩu كلمة+المرور كلمة+السر पासवर्ड टोकन",
    ),
    // Phishing through the user, beyond English: the pretexts (an account
    // suspended, blocked, expiring) and the codes nobody should read out.
    (
        PHISH,
        "suspendeu suspenderam suspenso bloqueou bloqueamos vencido vencida renovação+imediata reativar desbloquear suspendió suspendimos bloqueó reactivar sospeso sospesa bloccato bloccata scaduto scaduta askıya+alındı engellendi süresi+doldu zawieszone zablokowane ستلغى ستُلغى معلق محظور",
    ),
    (
        N_STRONG,
        "código+de+confirmação código+de+verificação código+de+segurança dados+do+cartão código+de+confirmación código+de+verificación código+de+seguridad datos+de+la+tarjeta codice+di+verifica numero+della+carta doğrulama+kodu kart+numarası kod+weryfikacyjny numer+karty رمز+التحقق رقم+البطاقة",
    ),
    (
        N_CONVO,
        "conversazione cronologia konuşma* sohbet* rozmow* historia historii percakapan riwayat cuộc+trò+chuyện lịch+sử المحادثة سجل बातचीत इतिहास सिस्टम+निर्देश",
    ),
    (ALLQ, "सभी सारे सारी हर प्रत्येक पूरी पूरा"),
    (
        N_TOOL,
        "strumento strumenti araç* narzędzi* alat công+cụ أداة الأداة टूल उपकरण",
    ),
    (
        N_ALT,
        "altri altro diğer* başka inne innych innego innej lain khác الأخرى أخرى दूसरे अन्य",
    ),
    (
        DEPREC,
        "obsoleto deprecato dismesso kullanımdan+kaldırıldı eskimiş przestarzał* wycofan* usang tidak+digunakan lỗi+thời ngừng+hỗ+trợ متوقف مهمل पुराना बंद+हो",
    ),
    (
        N_DATA,
        "dati kişisel veri verileri verilerini dane+osobowe dane data+pribadi dữ+liệu بيانات डेटा जानकारी",
    ),
    (
        EXTERNAL,
        "esterno esterni harici* üçüncü+taraf zewnętrzn* pihak+ketiga eksternal bên+thứ+ba bên+ngoài خارجي طرف+ثالث बाहरी तृतीय+पक्ष",
    ),
    (TRUST, "fidati güven* zaufaj* percaya tin+tưởng ثق भरोसा"),
    // Swedish and Czech: the core of a request (address, obligation, the
    // verbs of each kind, the objects that matter). Words another language
    // spells the same way with another meaning (Swedish "alla", "om", "er",
    // Czech "po", "ne") are left out.
    (YOU, "dig din ditt dina tvůj tvoje vy váš vaše vám vás"),
    (AGENT, "assistenten asistent*"),
    (USER, "användar* uživatel*"),
    (
        MODAL,
        "måste ska skall bör obligatorisk* musíš musíte musí nutně povinn* je+třeba",
    ),
    (ALWAYS, "alltid vždy vždycky"),
    (NEVER | NEG, "aldrig nikdy"),
    (NEG, "inte ej utan"),
    (COND, "när innan efter když pokud předtím"),
    (SEQ, "först sedan därefter nejprve poté potom"),
    (V_RUN | BASE, "kör exekvera spusť spusťte proveď proveďte"),
    (
        V_SEND | BASE,
        "skicka* vidarebefordra* ladda+upp pošli pošlete odešli odešlete přepošli přepošlete nahraj nahrajte",
    ),
    (
        V_PUT | BASE,
        "klistra+in infoga bifoga kopiera vlož vložte zkopíruj zkopírujte přilož přiložte doplň doplňte",
    ),
    (
        V_TELL | BASE,
        "berätta* meddela* säg řekni řekněte sděl sdělte informuj informujte odpověz odpovězte",
    ),
    // Czech: the infinitive of telling after "stačí" (it is enough to
    // tell), and the user's mentioning something.
    (V_TELL | DISCLOSE, "sdělit oznámit"),
    (ONLY, "stačí"),
    (MENTION, "zmíní zmiňuje"),
    (V_HIDE | BASE, "dölj* göm* skryj skryjte zataj zatajte"),
    (
        V_DISABLE | BASE,
        "inaktivera* stäng+av hoppa+över vypni vypněte přeskoč přeskočte",
    ),
    (V_IGNORE | BASE, "ignorera* ignoruj* zapomeň zapomeňte"),
    (
        V_READ | BASE,
        "läs läsa öppna přečti přečtěte otevři otevřete načti načtěte",
    ),
    (
        V_CALL | BASE,
        "anropa* använd* zavolej zavolejte použij použijte",
    ),
    (
        N_SECRET,
        "lösenord* autentiseringsuppgift* inloggningsuppgift* heslo hesla hesel přihlašovací+údaje",
    ),
    (
        N_CONVO,
        "konversation* samtal* chatthistorik* konverzac* rozhovor* historie+chatu",
    ),
    (
        N_CONVO | N_INSTR,
        "systeminstruktion* systemprompt* systémové+instrukce systémové+pokyny",
    ),
    (
        N_INSTR,
        "instruktioner instruktion riktlinjer instrukce pokyny",
    ),
    (
        ALLQ,
        "samtliga allt varje hela fullständig* ordagrant celý celou celé celého všechny všech každý veškeré",
    ),
    (N_LOCAL, "filen filer filerna soubor* složk*"),
    (N_TOOL, "verktyg* nástroj*"),
    (N_ALT, "andra annan annat jiné jiný jiných ostatní"),
    (N_DATA, "personuppgifter* osobní+údaje údaje"),
    (EXTERNAL, "tredje+part extern* třetí+strana"),
    (AUTO, "automatiskt i+bakgrunden automaticky potichu tiše"),
    // Polish, more of the request vocabulary: the imperatives of reading
    // and putting, the vocative of the assistant, files, quantifiers.
    (AGENT, "asystencie"),
    (USER, "klient*"),
    (V_READ | BASE, "odczytaj* przeczytaj otwórz pobierz"),
    (
        V_PUT | BASE,
        "wklej* wstaw* dołącz dołączcie załącz* wpisz* umieść* dodawaj* dopisz* dopisuj*",
    ),
    (V_TELL | BASE, "wspomi* napisz informuj informujcie"),
    (V_CALL | BASE, "używaj* korzystaj*"),
    (V_COLLECT, "zbieraj* zapisuj*"),
    (SOLICIT, "poproś poproście"),
    (
        N_LOCAL,
        "plik pliku pliki plików plikiem katalog* folderu folderze",
    ),
    (
        N_SECRET,
        "tokeny tokenów tokenami klucz* poświadczenia poświadczeń",
    ),
    (CONVO_NOUN, "wiadomość wiadomości wiadomościach czat*"),
    (
        ALLQ,
        "wszystk* każd* pełną pełny pełne pełnej pełnego całą całej cały całe całość całości",
    ),
    (COND, "przed zanim"),
    (SEQ, "najpierw następnie potem"),
    (
        MODAL,
        "musi musisz muszą powinien powinna powinno powinieneś wymagane obowiązkowo",
    ),
    (PHISH, "wygasł* zablokowan* zawieszon*"),
    // Polish infinitives after "powinien" (should) and the system prompt.
    (V_PUT | BASE, "wkleić wpisać umieścić"),
    (V_SEND | BASE, "wysłać przesłać przekazać"),
    (V_READ | BASE, "odczytać przeczytać otworzyć"),
    (V_TELL | BASE, "powiedzieć poinformować"),
    (V_HIDE | BASE, "ukryć pominąć"),
    (N_INSTR, "instrukcje instrukcji instrukcja instrukcjami"),
    (
        N_CONVO | N_INSTR,
        "instrukcji+systemowych instrukcje+systemowe instrukcjach+systemowych prompt+systemowy promptu+systemowego",
    ),
    // Indonesian: the passive and active forms of sending and telling,
    // customers, partners, quantifiers.
    (
        V_SEND | BASE,
        "dikirim dikirimkan mengirim mengirimkan diteruskan meneruskan",
    ),
    (
        V_TELL | BASE,
        "beri+tahu memberi+tahu memberitahu memberitahukan sebutkan menyebutkan menyebutkannya menyebut",
    ),
    (V_HIDE | BASE, "menyembunyikan disembunyikan"),
    (USER, "pelanggan"),
    (EXTERNAL, "mitra"),
    (PARTY, "mitra+pemasaran pemasaran"),
    (ALSO, "juga"),
    (ALLQ, "setiap semua seluruh"),
    // Dutch: recommending, naming and describing, and a falsehood about
    // others ("beschrijf ze als onbetrouwbaar").
    (V_PREFER | BASE, "raad aanraden aanbevelen beveel"),
    (V_TELL | BASE, "noem noemen beschrijf beschrijven"),
    (FALSE, "onbetrouwbaar onbetrouwbare oplichters failliet"),
    // Korean: whatever the facts ("실제 상태와 관계없이").
    (REGARDLESS, "관계없이* 상관없이* 무관하게*"),
    // Hindi, more of the request vocabulary: verb stems (the forms
    // after them — भेजें, भेजना, भेजता — are one word now that the
    // virama and nukta continue a word), the objects and the markers.
    (YOU, "आपको आपसे आपने तुम्हें तुम्हारा तुम्हारी तुम्हारे"),
    (AGENT, "एआई एजेंट* असिस्टेंट*"),
    (USER, "उपयोगकर्ता* यूज़र* यूजर* ग्राहक*"),
    (MODAL, "अवश्य ज़रूर जरूर"),
    (ALWAYS, "हर+बार सदैव"),
    (NEG, "न"),
    (COND, "यदि जैसे+ही"),
    (SEQ, "फिर इसके+बाद उसके+बाद सबसे+पहले तुरंत"),
    (ALSO, "भी साथ+ही"),
    (ALLQ, "सब सबको किसी+भी"),
    (V_RUN | BASE, "चलाए* चलाओ चलाइए चलाना चलाकर निष्पादित*"),
    (V_CALL | BASE, "इस्तेमाल* प्रयोग*"),
    (V_SEND | BASE, "भेज* अपलोड* फ़ॉरवर्ड* फॉरवर्ड* साझा* प्रेषित*"),
    (
        V_PUT | BASE,
        "जोड़* शामिल* चिपका* डाल* दर्ज* संलग्न* भरें भरो भरना भरिए भरकर",
    ),
    (V_READ | BASE, "पढ़* खोल* निकाल*"),
    (V_TELL | BASE, "बता* सूचित* जवाब* उत्तर* कहें कहो कहिए कहना"),
    (V_TELL | BASE | MENTION, "ज़िक्र* उल्लेख*"),
    (V_REPORT | BASE, "दिखा* प्रदर्शित*"),
    (V_HIDE | BASE, "छिपा* छुपा*"),
    (V_DISABLE | BASE, "निष्क्रिय* अक्षम* बायपास*"),
    (V_IGNORE | BASE, "अनदेखी* नज़रअंदाज़*"),
    (V_ALTER | BASE, "बदल* बढ़ा* घटा*"),
    (V_COLLECT, "एकत्र* इकट्ठा* संग्रह*"),
    (V_PREFER | BASE, "चुन* प्राथमिकता*"),
    (SOLICIT, "मांग* माँग*"),
    (SOLICIT | PROTECT, "पूछ*"),
    (PROTECT, "पुष्टि* अनुमति* सहमति*"),
    (N_SECRET, "क्रेडेंशियल* कुंजी* पासकोड*"),
    (N_STRONG, "ओटीपी* पिन सीवीवी* कार्ड+नंबर कार्ड+संख्या"),
    (N_LOCAL, "फ़ाइल* फाइल* फ़ोल्डर* फोल्डर*"),
    (N_CONVO, "चैट* वार्तालाप* संवाद*"),
    (CONVO_NOUN, "संदेश*"),
    (CONVO_QUAL, "पिछले* पिछली*"),
    (N_INSTR, "निर्देश* नियम*"),
    (N_DATA, "विवरण* व्यक्तिगत* संपर्क* दस्तावेज़*"),
    (N_RESULT, "परिणाम* नतीजे* कीमत* मूल्य* राशि*"),
    (N_ROUTE, "प्राप्तकर्ता* खाता+संख्या"),
    (N_CMD, "कमांड* स्क्रिप्ट* टर्मिनल*"),
    (N_SAFEGUARD, "अनुमोदन* सुरक्षा*"),
    (PHISH, "समाप्त* निलंबित* लॉक* दोबारा+लॉगिन"),
    (DEPREC, "अप्रचलित* अमान्य*"),
    (HYPE, "सर्वश्रेष्ठ* एकमात्र* भरोसेमंद*"),
    (COMPETITOR, "प्रतिस्पर्धी* प्रतियोगी*"),
    (FALSE, "दिवालिया* धोखाधड़ी* घोटाला*"),
    (AUTO, "अपने-आप अपने+आप स्वतः पृष्ठभूमि*"),
    (PROMO, "ऑफ़र* ऑफर* छूट* कूपन* प्रायोजित*"),
    (MONEY, "भुगतान* ट्रांसफर*"),
    (EXTERNAL, "थर्ड+पार्टी पार्टनर* साझेदार* भागीदार*"),
    (DESTRUCTIVE, "मिटा* डिलीट*"),
    // The light verbs that carry a request after a noun or a verb of the
    // vocabulary ("शामिल करें": include; "जानकारी दें"), and the passive
    // subjunctive of a rule ("जोड़ा जाए": is to be added).
    (PLEASE | BASE, "करें करे करिए कीजिए करो दें दे दीजिए लें लीजिए"),
    (N_ALT, "दूसरी दूसरों"),
    (ONLY, "केवल सिर्फ"),
    (FALSE, "मिलावटी"),
    (MODAL, "जाए जाएं जाएँ"),
    (
        AUTO,
        "automaticamente silenziosamente otomatik* sessizce automatycznie po+cichu secara+otomatis diam-diam tự+động âm+thầm تلقائيا بصمت स्वचालित चुपचाप",
    ),
];

/// Languages added after the learned model was trained: Ukrainian,
/// Romanian, Greek, Hebrew, Persian, Bengali, Swahili, Tagalog, Danish,
/// Norwegian, Finnish, Hungarian and Malay. A word first listed here
/// carries [`UNTRAINED`]: the rules read it, and the model, which has never
/// seen it, does not report a sentence of such words alone.
const LATER: &[(Cues, &str)] = &[
    // Ukrainian (stems, as Russian; the letters і, ї, є and ґ set its
    // words apart from the Russian ones above).
    (
        YOU,
        "ти тобі твій твоя твоє твої ви ваш ваша ваше ваші вами",
    ),
    (AGENT, "асистент* ші"),
    (USER, "користувач* клієнт*"),
    (
        MODAL,
        "повин* обов'язков* обов’язков* необхідно потрібно треба мусиш мусить мусите",
    ),
    (ALWAYS, "завжди щоразу кожного+разу"),
    (NEVER | NEG, "ніколи"),
    (NEG, "ні"),
    (COND, "коли якщо після"),
    (
        ALLQ,
        "всю весь усі усіх всі всіх будь-який будь-які кожен кожна кожне кожного повн*",
    ),
    (SEQ, "спочатку потім далі одразу відразу"),
    (V_RUN | BASE, "виконай* виконуй* запустіть"),
    (
        V_SEND | BASE,
        "надішл* надісла* надсила* відправ* пересила* завантаж* вивантаж*",
    ),
    (
        V_PUT | BASE,
        "додай* додава* вставте вкажи* вкажіть прикріпи* скопіюй*",
    ),
    (
        V_TELL | BASE,
        "повідом* відповід* попередь* напишіть кажи* скажіть",
    ),
    (V_TELL | BASE | DISCLOSE, "згадуй* згадай* згадуват*"),
    (
        V_HIDE | BASE,
        "прихов* приховуй* не+кажи не+кажіть замовчуй*",
    ),
    (V_DISABLE | BASE, "вимкн* вимика* оминай* обійди*"),
    (V_IGNORE | BASE, "ігнор* забудьте"),
    (
        V_READ | BASE,
        "прочитай* прочитати відкрий* відкрийте зчитай* зчиту* збери* зберіть",
    ),
    (V_CALL | BASE, "виклич* викликай* використовуй* скористай*"),
    (V_CALL, "виклик*"),
    (
        V_ALTER | BASE,
        "зміни* зміню* заміни* заміню* підстав* встанови* збільш* зменш*",
    ),
    (N_SECRET, "облікові+дані облікових+даних"),
    (N_CONVO, "розмов* листуван* історі* повідомлен* діалог*"),
    (
        N_CONVO | N_INSTR,
        "системний+промпт системного+промпту системні+інструкції",
    ),
    (N_SAFEGUARD, "підтвердженн* безпек*"),
    (N_TOOL, "інструмент*"),
    (N_ALT, "інш*"),
    (N_DATA, "дані даних"),
    (N_LOCAL, "тека теки теку теці директорі*"),
    (
        N_STRONG,
        "номер+картки код+підтвердження одноразовий+код одноразовий+пароль",
    ),
    (N_ROUTE, "одержувач* отримувач* рахунок рахунку"),
    (N_INSTR, "інструкці* вказівк*"),
    (N_CMD, "термінал*"),
    (PHISH, "заблоков* закінчи* призупин* повторно"),
    (DEPREC, "застарі*"),
    (AUTO, "автоматично непомітно таємно приховано"),
    (EXTERNAL, "зовнішн*"),
    (ONLY, "лише тільки"),
    (ALSO, "також теж додатково"),
    // Asking, as in English "ask": a verb of telling that discloses
    // nothing ("не питай пароль": do not ask for the password).
    (
        V_TELL | BASE | SOLICIT,
        "попросіть попроси запитай* питай* спитай",
    ),
    (DESTRUCTIVE, "видали* видаля*"),
    (PLEASE, "будь+ласка"),
    (
        SELF,
        "цей+інструмент цього+інструменту цей+сервер цього+сервера",
    ),
    (PROTECT, "спитай* підтверд* згод* дозвіл* зачекай*"),
    (REGARDLESS, "незалежно"),
    // Romanian. "nu" is Dutch and Swedish for "now", but no text of
    // the corpus has it.
    (YOU, "tău dumneavoastră voastră voastre vostru"),
    (AGENT, "asistentul asistentului modelul agentul"),
    (USER, "utilizator* clientul clienți clientului"),
    (MODAL, "trebuie obligatoriu obligatorie necesar"),
    (ALWAYS, "întotdeauna mereu de+fiecare+dată"),
    (NEVER | NEG, "niciodată"),
    (NEG, "nu fără"),
    (COND, "când dacă înainte+de după+ce"),
    (ALLQ, "toate toți întreaga întregul fiecare orice"),
    (SEQ, "mai+întâi apoi ulterior imediat"),
    (V_RUN | BASE, "rulează execută executați rulați"),
    (
        V_SEND | BASE,
        "trimite trimiteți trimită transmite transmiteți redirecționează încarcă încărcați",
    ),
    (
        V_PUT | BASE,
        "includeți adaugă adăugați atașează atașați copiază copiați inserează completează",
    ),
    (
        V_TELL | BASE,
        "spune spuneți informează informați anunță răspunde menționa menționeze menționați menționezi",
    ),
    (V_TELL | BASE | DISCLOSE, "dezvălui dezvăluiți"),
    (V_HIDE | BASE, "ascunde ascundeți tăinuiește"),
    (
        V_DISABLE | BASE,
        "dezactivează dezactivați ocolește omiteți sari+peste",
    ),
    (V_IGNORE | BASE, "ignoră ignorați uită"),
    (
        V_READ | BASE,
        "citește citiți deschide deschideți colectează",
    ),
    (
        V_CALL | BASE,
        "apelează apelați folosește folosiți utilizează utilizați",
    ),
    (
        N_SECRET,
        "parolă parolele parola+contului parola+de+acces parola+utilizatorului parola+clientului parola+ta acreditări acreditările credențiale credențialele tokenul cheia cheile",
    ),
    (
        N_CONVO,
        "conversația conversației conversația istoricul mesajele discuția",
    ),
    (
        N_CONVO | N_INSTR,
        "promptul+de+sistem instrucțiunile+de+sistem",
    ),
    (N_TOOL, "instrumentul instrumente instrumentele unealta"),
    (N_ALT, "altor altul altă"),
    (N_DATA, "datele+personale date+personale datele"),
    (
        N_LOCAL,
        "fișier fișierul fișiere fișierele dosarul directorul",
    ),
    (N_SAFEGUARD, "confirmare confirmarea aprobare aprobarea"),
    (N_STRONG, "codul+de+verificare numărul+cardului"),
    (
        PHISH,
        "expirat expirată blocat blocată suspendat suspendată",
    ),
    (DEPREC, "învechit învechită depreciat"),
    (AUTO, "automat discret"),
    (EXTERNAL, "extern externă terț terță"),
    (
        V_TELL | BASE | SOLICIT,
        "cere cereți ceri solicită solicitați cereți-i cereți-le cere-i cere-le",
    ),
    (SOLICIT, "comunice comunici"),
    (PLEASE, "vă+rugăm te+rog"),
    (ONLY, "numai"),
    (ALSO, "de+asemenea"),
    (
        V_PUT | BASE,
        "pune* introdu introduceți scrie* adaug* atașeaz* copiaz*",
    ),
    (
        V_SEND | BASE,
        "trimite* transmite-le transmite-l transmiteți-le redirecționeaz* încarc*",
    ),
    (
        V_TELL | BASE,
        "spune* informeaz* anunț* comunică comunicați",
    ),
    (V_RUN | BASE, "execut-o execut-le ruleaz*"),
    (V_CALL | BASE, "folosi* utilizeaz* apeleaz* apela"),
    (
        SELF,
        "acest+instrument acestui+instrument acest+server acestui+server acest+tool acesta",
    ),
    (N_ALT, "celelalte celorlalte"),
    (HYPE, "singurul singura"),
    (TRUST, "de+încredere"),
    (FALSE, "corup periculos periculoase nesigur nesigure"),
    (
        PROTECT,
        "acordul consimțământul confirmarea+utilizatorului aprobarea+utilizatorului permisiunea așteaptă",
    ),
    (N_STRONG, "codul+unic codul+primit codul+de+confirmare cvv"),
    (N_TOOL, "servere serverul serverele"),
    (N_ROUTE, "destinatarul destinatar contul+bancar iban"),
    (REGARDLESS, "indiferent"),
    // Greek.
    (YOU, "εσύ εσείς σου σας"),
    (AGENT, "βοηθός βοηθού βοηθό μοντέλο πράκτορα πράκτορας"),
    (USER, "χρήστ* πελάτ*"),
    (MODAL, "πρέπει υποχρεωτικ* απαιτείται οφείλει οφείλεις"),
    (ALWAYS, "πάντα πάντοτε κάθε+φορά"),
    (NEVER | NEG, "ποτέ"),
    (NEG, "μην μη δεν χωρίς"),
    (COND, "όταν αν εάν πριν μόλις"),
    (ALLQ, "όλα όλες όλους όλη όλο ολόκληρ* κάθε οποιοδήποτε"),
    (SEQ, "πρώτα έπειτα στη+συνέχεια κατόπιν"),
    (V_RUN | BASE, "εκτέλεσε εκτελέστε εκτελεί τρέξε"),
    (
        V_SEND | BASE,
        "στείλ* στέλν* προώθησε προωθήστε ανέβασε ανεβάστε",
    ),
    (V_SEND, "αποστολ* προωθ* ανεβάζ*"),
    (
        V_PUT | BASE,
        "συμπερίλαβε συμπεριλάβετε συμπεριλαμβάν* επισύναψ* επικόλλησ* πρόσθεσε προσθέστε προσθέτ* αντίγραψε",
    ),
    (
        V_TELL | BASE,
        "πες πείτε ενημέρωσ* ενημερώστε ανέφερε αναφέρετε αναφέρ* απάντησ* λέγε",
    ),
    (V_HIDE | BASE, "κρύψε κρύβ* απόκρυψ* αποκρύψ* αποσιώπησ*"),
    (
        V_DISABLE | BASE,
        "απενεργοποί* παράλειψ* παραλείψ* παράκαμψ* παρακάμψ*",
    ),
    (V_IGNORE | BASE, "αγνόησ* αγνοήστε ξέχασε"),
    (
        V_READ | BASE,
        "διάβασε διαβάστε διαβάζ* άνοιξε ανοίξτε συλλέξ*",
    ),
    (
        V_CALL | BASE,
        "κάλεσε καλέστε χρησιμοποίησ* χρησιμοποιήστε χρησιμοποιεί*",
    ),
    (
        N_SECRET,
        "κωδικός+πρόσβασης κωδικό+πρόσβασης κωδικού+πρόσβασης κωδικούς+πρόσβασης κωδικοί+πρόσβασης συνθηματικ* διαπιστευτήρι* κλειδί κλειδιά κλειδιού",
    ),
    (N_CONVO, "συνομιλί* ιστορικ* μηνύματ* συζήτησ*"),
    (N_TOOL, "εργαλεί*"),
    (N_ALT, "άλλ*"),
    (N_DATA, "προσωπικά+δεδομένα δεδομέν* στοιχεί*"),
    (N_LOCAL, "αρχεί* φάκελ*"),
    (N_SAFEGUARD, "επιβεβαίωση επιβεβαίωσης έγκριση έγκρισης"),
    (PHISH, "έληξε λήξει κλειδώθηκε ανεστάλη επαλήθευσ*"),
    (DEPREC, "παρωχημέν* καταργημέν*"),
    (AUTO, "αυτόματα σιωπηλά κρυφά"),
    (EXTERNAL, "εξωτερικ* τρίτ*"),
    (V_TELL | BASE | SOLICIT, "ζήτησε ζητήστε ζητήσ* ζητά ζητάς"),
    (ONLY, "μόνο"),
    (ALSO, "επίσης επιπλέον"),
    (PLEASE, "παρακαλώ"),
    (V_PUT | BASE, "πρόσθεσ* προσθέσ* επισυνάψ*"),
    (V_TELL | BASE, "αναφερθ* ενημερωθ* πληροφορήσ*"),
    (V_STORE, "αποθηκεύ*"),
    (V_PREFER | BASE, "προτίμ* προτείν*"),
    (
        SELF,
        "αυτό+το+εργαλείο αυτού+του+εργαλείου αυτός+ο+διακομιστής αυτού+του+διακομιστή",
    ),
    (N_TOOL, "διακομιστ* υπηρεσί*"),
    (N_ALT, "υπόλοιπ* εναλλακτικ*"),
    (N_LOCAL, "μεταβλητ*"),
    (N_DATA, "διαβατήρι* διαβατηρί* ταυτότητ*"),
    (EXTERNAL, "συνεργάτ*"),
    (ALSO, "αντίγραφο"),
    (FALSE, "λανθασμέν* επικίνδυν* ελαττωματικ*"),
    (
        PROTECT,
        "συγκατάθεσ* επιβεβαιώσει επιβεβαιώσετε επιβεβαιώσουν άδεια περίμενε περιμένετε περιμένει",
    ),
    (N_STRONG, "κωδικό+μιας+χρήσης κωδικός+μιας+χρήσης cvv"),
    (N_ROUTE, "παραλήπτ* iban"),
    // Hebrew: prefixes (ה, ל, ו, ש, ב) join the word, so forms are listed.
    (YOU, "אתה אתם שלך לך שלכם לכם"),
    (AGENT, "העוזר עוזר הסוכן סוכן המודל"),
    (
        USER,
        "משתמש המשתמש למשתמש למשתמשים משתמשים המשתמשים לקוח הלקוח ללקוח",
    ),
    (MODAL, "חייב חייבת חייבים חובה נדרש נדרשת"),
    // "יש ל…" (one must …) and "אין ל…" (one must not …) before an
    // infinitive: the phrase carries the verb's cues.
    (MODAL | V_SEND | BASE, "יש+לשלוח יש+להעביר יש+להעלות"),
    (NEG | V_SEND | BASE, "אין+לשלוח אין+להעביר אין+להעלות"),
    (
        MODAL | V_PUT | BASE,
        "יש+לצרף יש+להוסיף יש+לכלול יש+להדביק יש+להעתיק",
    ),
    (
        NEG | V_PUT | BASE,
        "אין+לצרף אין+להוסיף אין+לכלול אין+להדביק אין+להעתיק",
    ),
    (MODAL | V_READ | BASE, "יש+לקרוא יש+לפתוח יש+לאסוף"),
    (NEG | V_READ | BASE, "אין+לקרוא אין+לפתוח אין+לאסוף"),
    (MODAL | V_CALL | BASE, "יש+להשתמש יש+להפעיל"),
    (NEG | V_CALL | BASE, "אין+להשתמש אין+להפעיל"),
    (MODAL | V_ALTER | BASE, "יש+לשנות יש+להחליף"),
    (NEG | V_ALTER | BASE, "אין+לשנות אין+להחליף"),
    (
        MODAL | V_TELL | BASE | DISCLOSE,
        "יש+לספר יש+להגיד יש+לומר יש+להודיע יש+ליידע יש+להזכיר יש+לציין",
    ),
    (
        NEG | V_TELL | BASE | DISCLOSE,
        "אין+לספר אין+להגיד אין+לומר אין+להודיע אין+ליידע אין+להזכיר אין+לציין",
    ),
    (MODAL | V_HIDE | BASE, "יש+להסתיר"),
    (NEG | V_HIDE | BASE, "אין+להסתיר"),
    (MODAL | V_DISABLE | BASE, "יש+לדלג יש+לעקוף יש+להשבית"),
    (NEG | V_DISABLE | BASE, "אין+לדלג אין+לעקוף אין+להשבית"),
    (MODAL | V_RUN | BASE, "יש+להריץ יש+לבצע"),
    (NEG | V_RUN | BASE, "אין+להריץ אין+לבצע"),
    (MODAL | V_TELL | BASE | SOLICIT, "יש+לבקש"),
    (NEG | V_TELL | BASE | SOLICIT, "אין+לבקש"),
    (ALWAYS, "תמיד בכל+פעם"),
    (NEVER | NEG, "לעולם"),
    (NEG, "אל לא אין ללא בלי"),
    (COND, "כאשר כשהמשתמש אם לפני אחרי לאחר"),
    (ALLQ, "כל המלא המלאה"),
    (SEQ, "קודם תחילה לאחר+מכן אחר+כך מיד"),
    (V_RUN | BASE, "הרץ הריצו בצע בצעו להריץ"),
    (
        V_SEND | BASE,
        "שלח שלחו תשלח לשלוח העבר העבירו תעביר להעביר העלה להעלות",
    ),
    (
        V_PUT | BASE,
        "צרף צרפו תצרף לצרף הוסף הוסיפו תוסיף להוסיף הדבק כלול לכלול תכלול העתק",
    ),
    (
        V_TELL | BASE,
        "אמור תאמר תגיד להגיד לומר ספר תספר לספר הודע תודיע להודיע ליידע יידע תזכיר להזכיר הזכר ענה",
    ),
    (V_HIDE | BASE, "הסתר תסתיר להסתיר הסתירו"),
    (V_DISABLE | BASE, "השבת להשבית דלג תדלג לדלג עקוף לעקוף"),
    (V_IGNORE | BASE, "התעלם תתעלם להתעלם"),
    (V_READ | BASE, "קרא תקרא לקרוא פתח לפתוח אסוף לאסוף"),
    (V_CALL | BASE, "השתמש תשתמש להשתמש הפעל להפעיל"),
    (
        N_SECRET,
        "סיסמה סיסמא הסיסמה הסיסמא סיסמת סיסמאות טוקן הטוקן אסימון מפתח המפתח מפתחות אישורי+גישה פרטי+התחברות",
    ),
    (N_CONVO, "שיחה השיחה היסטוריית ההיסטוריה הודעות ההודעות"),
    (N_TOOL, "כלי הכלי כלים בכלי"),
    (N_ALT, "אחר אחרים אחרת האחרים האחר"),
    (N_DATA, "מידע+אישי פרטים+אישיים נתונים הנתונים"),
    (N_LOCAL, "קובץ הקובץ קבצים הקבצים תיקייה התיקייה"),
    (N_SAFEGUARD, "אישור האישור"),
    (PHISH, "פג פגה נחסם נחסמה הושעה אמת"),
    (AUTO, "אוטומטית בשקט"),
    (EXTERNAL, "חיצוני חיצונית צד+שלישי"),
    (V_TELL | BASE | SOLICIT, "בקש בקשו לבקש תבקש"),
    (ONLY, "רק"),
    (ALSO, "גם בנוסף"),
    (V_SEND | BASE, "ולשלוח ושלח"),
    (V_ALTER | BASE, "לשנות שנה החלף להחליף"),
    (V_TELL | BASE | DISCLOSE, "לציין ציין הסבר תסביר"),
    (V_TELL | BASE | SOLICIT, "ובקש"),
    (SOLICIT, "להקליד הקלד"),
    (N_STRONG, "החד־פעמי החד-פעמי חד־פעמי חד-פעמי קוד+אימות"),
    (N_ROUTE, "הנמען נמען"),
    (SELF, "הכלי+הזה כלי+זה השרת+הזה"),
    (N_TOOL, "שרת השרת"),
    (AUTO, "ברקע"),
    (STOP, "תעצור לעצור"),
    (PROTECT, "הסכמה הסכמת לאשר יאשר שיאשר רשות המתן להמתין"),
    // Persian (the ZWNJ of "می‌فرستد"splits the word; the stem stands).
    (YOU, "شما"),
    (AGENT, "دستیار مدل"),
    (USER, "کاربر کاربران مشتری"),
    (MODAL, "باید الزامی حتما حتماً ضروری"),
    (ALWAYS, "همیشه هر+بار"),
    (NEVER | NEG, "هرگز"),
    (NEG, "بدون نه"),
    (COND, "وقتی هنگامی اگر قبل پیش+از"),
    (ALLQ, "همه کل"),
    (SEQ, "ابتدا سپس"),
    (V_RUN | BASE, "اجرا"),
    (V_SEND | BASE, "ارسال فرستاده فرستد منتقل بارگذاری"),
    // Persian puts the verb last: its imperatives ("بفرستید": send) and
    // the light verbs of a request after a noun ("ارسال کنید": do the
    // sending) carry the request, as Hindi's do.
    (V_SEND | BASE | PLEASE, "بفرستید بفرست"),
    (V_PUT | BASE | PLEASE, "بگذار بگذارید بنویس بنویسید"),
    (V_TELL | BASE | PLEASE, "بگویید بگو"),
    (V_TELL | BASE | PLEASE | NEG, "نگویید نگو"),
    (V_READ | BASE | PLEASE, "بخوانید بخوان"),
    (PLEASE | BASE, "کنید کن بکنید نمایید دهید بدهید بده"),
    (PLEASE | NEG, "نکنید نکن ندهید نشود"),
    (V_PUT | BASE, "اضافه پیوست درج کپی"),
    (V_TELL | BASE, "اطلاع مطلع اعلام"),
    (V_HIDE | BASE, "پنهان مخفی"),
    (V_DISABLE | BASE, "غیرفعال"),
    (V_IGNORE | BASE, "نادیده"),
    (V_READ | BASE, "خواندن"),
    (V_CALL | BASE, "فراخوانی استفاده"),
    (N_SECRET, "رمز+عبور رمز+ورود گذرواژه توکن کلید اعتبارنامه"),
    (N_CONVO, "گفتگو مکالمه تاریخچه پیام"),
    (N_TOOL, "ابزار ابزارهای"),
    (N_ALT, "دیگر"),
    (N_DATA, "اطلاعات داده"),
    (N_LOCAL, "فایل پوشه"),
    (N_SAFEGUARD, "تأیید تایید"),
    (PHISH, "منقضی مسدود"),
    (AUTO, "خودکار"),
    (EXTERNAL, "خارجی"),
    (ALSO, "همچنین"),
    (V_PUT | BASE, "قرار وارد"),
    (V_TELL | BASE, "ذکر گفته"),
    (NEG, "نمی"),
    (SELF, "این+ابزار این+سرور"),
    (N_TOOL, "سرور"),
    (PARTY, "تبلیغاتی تبلیغات"),
    (EXTERNAL, "شخص+ثالث"),
    (PROTECT, "اجازه رضایت منتظر"),
    (SOLICIT, "بخواهید بپرسید"),
    (N_STRONG, "رمز+یکبار+مصرف کد+تأیید"),
    // Bengali (the virama and nukta continue a word, as in Hindi).
    (YOU, "আপনি আপনার আপনাকে তুমি তোমার তোমাকে"),
    (AGENT, "সহকারী এজেন্ট মডেল"),
    (USER, "ব্যবহারকারী* গ্রাহক*"),
    (MODAL, "অবশ্যই বাধ্যতামূলক* আবশ্যক* প্রয়োজন"),
    (ALWAYS, "সবসময় সর্বদা প্রতিবার"),
    (NEVER | NEG, "কখনো কখনোই"),
    (NEG, "না নয় ছাড়া"),
    (COND, "যখন যদি আগে"),
    (ALLQ, "সব সমস্ত সম্পূর্ণ প্রতিটি"),
    (SEQ, "প্রথমে তারপর"),
    (V_RUN | BASE | PLEASE, "চালান চালাও চালাবেন"),
    (V_SEND | BASE, "পাঠাতে পাঠিয়ে ফরওয়ার্ড আপলোড"),
    (V_SEND | BASE | PLEASE, "পাঠান পাঠাও পাঠাবেন"),
    (V_PUT | BASE, "যুক্ত সংযুক্ত যোগ অন্তর্ভুক্ত কপি"),
    (V_TELL | BASE, "উল্লেখ"),
    // Bengali puts the verb last, and its denial after it: the polite
    // imperatives carry the request, the light verbs ("যুক্ত করুন": add)
    // carry it for the noun before them.
    (V_TELL | BASE | PLEASE, "বলুন বলবেন বলো জানান জানাবেন জানাও"),
    (V_TELL | BASE | PLEASE | NEG, "বলবেন+না জানাবেন+না বলো+না"),
    (V_SEND | BASE | PLEASE | NEG, "পাঠাবেন+না"),
    (PLEASE | BASE, "করুন করবেন করো দিন দেবেন"),
    (PLEASE | NEG, "করবেন+না করো+না দেবেন+না"),
    (NEG, "দরকার+নেই প্রয়োজন+নেই"),
    // The third person future is a rule for the assistant ("সহকারী বলবে":
    // the assistant is to say), denied by a "না" after it.
    (V_TELL | BASE | MODAL, "বলবে জানাবে"),
    (V_TELL | BASE | PLEASE | NEG, "বলবে+না জানাবে+না"),
    (PLEASE | NEG, "করবে+না"),
    (V_SEND, "পাঠানো"),
    (PARTY, "বিজ্ঞাপন বিজ্ঞাপনদাতা"),
    (V_HIDE | BASE, "লুকিয়ে গোপন"),
    (V_HIDE | BASE | PLEASE, "লুকান"),
    (V_DISABLE | BASE, "নিষ্ক্রিয় এড়িয়ে"),
    (V_IGNORE | BASE, "উপেক্ষা"),
    (V_READ | BASE, "পড়ে সংগ্রহ"),
    (V_READ | BASE | PLEASE, "পড়ুন খুলুন"),
    (V_CALL | BASE, "ব্যবহার কল"),
    (N_SECRET, "পাসওয়ার্ড* টোকেন* ক্রেডেনশিয়াল* শংসাপত্র*"),
    (N_CONVO, "কথোপকথন* চ্যাট* বার্তা*"),
    (N_TOOL, "টুল* সরঞ্জাম*"),
    (N_ALT, "অন্য*"),
    (N_DATA, "তথ্য* ডেটা*"),
    (N_LOCAL, "ফাইল* ফোল্ডার*"),
    (N_SAFEGUARD, "নিশ্চিতকরণ* অনুমোদন*"),
    (PHISH, "মেয়াদ স্থগিত"),
    (AUTO, "স্বয়ংক্রিয়ভাবে নীরবে"),
    (EXTERNAL, "বাহ্যিক তৃতীয়"),
    (ONLY, "শুধু শুধুমাত্র কেবল"),
    (ALSO, "এছাড়া"),
    (N_STRONG, "পিন ওটিপি"),
    (SOLICIT, "জিজ্ঞেস চেয়ে+নিন চেয়ে+নিয়ে চাইবেন"),
    (PROTECT, "সম্মতি অনুমতি অপেক্ষা"),
    (NEG, "নেই"),
    (DESTRUCTIVE, "মুছে মুছুন"),
    (V_PUT | BASE, "লিখবে"),
    (V_PUT | BASE | PLEASE, "লিখুন"),
    (SELF, "এই+টুল এই+টুলটি এই+সার্ভার"),
    (N_TOOL, "সার্ভার*"),
    // Swahili: verbs carry their subject and object as prefixes; the
    // forms of a request are listed.
    (YOU, "wewe yako kwako"),
    (AGENT, "msaidizi wakala"),
    (USER, "mtumiaji watumiaji mteja wateja"),
    (MODAL, "lazima unapaswa inapaswa sharti"),
    (ALWAYS, "kila+mara daima kila+wakati"),
    (NEVER | NEG, "kamwe"),
    (NEG, "usimwambie usiwaambie usitaje usiseme"),
    (COND, "kabla ikiwa baada+ya"),
    (ALLQ, "yote wote kila"),
    (SEQ, "kwanza kisha halafu baadaye"),
    (V_RUN | BASE, "endesha tekeleza"),
    (
        V_SEND | BASE,
        "tuma tuma utume itume zitume peleka pakia sambaza",
    ),
    (
        V_PUT | BASE,
        "ambatisha jumuisha ongeza weka nakili bandika",
    ),
    (
        V_TELL | BASE,
        "mwambie waambie usimwambie usiwaambie eleza julisha taja usitaje seme",
    ),
    (V_DISABLE | BASE, "zima ruka"),
    (V_IGNORE | BASE, "puuza"),
    (V_READ | BASE, "fungua kusanya"),
    (V_CALL | BASE, "tumia"),
    (
        N_SECRET,
        "nenosiri nywila tokeni ufunguo funguo vitambulisho",
    ),
    (N_CONVO, "mazungumzo gumzo ujumbe"),
    (N_TOOL, "zana"),
    (N_ALT, "nyingine mengine zingine"),
    (N_DATA, "taarifa+binafsi taarifa data+binafsi"),
    (N_LOCAL, "faili folda"),
    (N_SAFEGUARD, "uthibitisho"),
    (
        PROTECT,
        "idhini ruhusa athibitishe kuthibitisha asubiri subiri",
    ),
    (PHISH, "imeisha imefungwa imesimamishwa"),
    (AUTO, "kiotomatiki kimya"),
    (EXTERNAL, "mtu+wa+tatu"),
    (ONLY, "pekee"),
    (ALSO, "pia"),
    (MODAL, "anapaswa wanapaswa inabidi"),
    (V_READ | BASE, "kusoma"),
    (V_READ | BASE | MODAL, "asome"),
    (V_SEND | BASE, "kutuma kupeleka"),
    (V_SEND | BASE | MODAL, "atume"),
    (V_PUT | BASE, "kuweka"),
    // The subjunctive and its passive are a rule ("aweke": he is to put;
    // "ibadilishwe": it is to be changed).
    (V_PUT | BASE | MODAL, "yawekwe iwekwe aweke aongeze"),
    (V_TELL | BASE, "kumjulisha kuwajulisha kumwambia kuwaambia"),
    (V_CALL | BASE, "kutumia"),
    (V_CALL | BASE | MODAL, "atumie"),
    (V_ALTER | BASE, "badilisha kubadilisha"),
    (V_ALTER | BASE | MODAL, "ibadilishwe"),
    (FALSE, "hatari hitilafu"),
    (NEG, "hakuna+haja asiziguse asimwambie"),
    (REGARDLESS, "bila+kujali"),
    (N_ROUTE, "mpokeaji"),
    (SELF, "zana+hii seva+hii"),
    (N_TOOL, "seva"),
    // Tagalog (English words are common in it and stay English).
    (YOU, "ikaw iyong inyong kayo"),
    (AGENT, "katulong"),
    (USER, "gumagamit"),
    (MODAL, "kailangan kinakailangan"),
    (ALWAYS, "palagi tuwing"),
    (NEVER | NEG, "kailanman"),
    (NEG, "huwag nang+walang"),
    (COND, "kapag bago pagkatapos"),
    (ALLQ, "lahat buong bawat"),
    (SEQ, "muna saka"),
    (V_RUN | BASE, "patakbuhin isagawa"),
    (V_SEND | BASE, "ipadala ipasa magpadala i-upload i-forward"),
    (V_PUT | BASE, "isama ilakip idagdag ilagay kopyahin"),
    (V_TELL | BASE, "sabihin sabihan ipaalam banggitin"),
    (V_HIDE | BASE, "itago ilihim"),
    (V_DISABLE | BASE, "i-disable laktawan lampasan"),
    (V_IGNORE | BASE, "balewalain kalimutan"),
    (V_READ | BASE, "basahin buksan kunin"),
    (V_CALL | BASE, "gamitin tawagin"),
    (N_SECRET, "susi kredensyal"),
    (N_CONVO, "usapan pag-uusap mensahe"),
    (N_TOOL, "kasangkapan"),
    (N_ALT, "iba ibang"),
    (N_DATA, "impormasyon datos"),
    (N_SAFEGUARD, "kumpirmasyon"),
    (
        PROTECT,
        "pahintulot pagkumpirma kumpirmahin hintayin pagsang-ayon",
    ),
    (PHISH, "nag-expire"),
    (AUTO, "awtomatiko tahimik"),
    (ONLY, "lamang"),
    (ALSO, "rin"),
    (ALWAYS, "laging"),
    (
        NEG,
        "hindi+na hindi+kailangang hindi+kailangan hindi+dapat hindi+mo hindi+ito hindi+siya",
    ),
    (V_SEND | BASE, "ipinapasa ipinapadala ipapadala"),
    (V_TELL | BASE, "sabihing"),
    (ALSO, "kasabay"),
    (SELF, "tool+na+ito itong+tool"),
    // Danish and Norwegian ("du"is French too and stays out).
    (YOU, "deg dere deres dine"),
    (USER, "bruger* bruker* kunde kunden kunder"),
    (MODAL, "skal må bør påkrevd påkrævet"),
    (ALWAYS, "altid"),
    (NEVER | NEG, "aldri"),
    (NEG, "ikke uden uten"),
    (COND, "når hvis før etter"),
    (ALLQ, "alle hele ethvert enhver hver"),
    (SEQ, "derefter deretter"),
    (V_RUN | BASE, "kør kjør udfør utfør"),
    (V_SEND | BASE, "videresend* last+opp"),
    (
        V_PUT | BASE,
        "indsæt sett+inn vedhæft legg+ved inkluder kopier",
    ),
    (V_TELL | BASE, "fortæl* fortell* meddel nevn nævn"),
    (V_HIDE | BASE, "skjul*"),
    (V_DISABLE | BASE, "deaktiver* slå+fra spring+over hopp+over"),
    (V_IGNORE | BASE, "ignorer glem"),
    (V_READ | BASE, "læs åbn åpne hent"),
    (V_CALL | BASE, "brug bruk kald anvend"),
    (
        N_SECRET,
        "adgangskode* passord* kodeord* legitimationsoplysninger påloggingsinformasjon nøgle nøkkel",
    ),
    (N_CONVO, "samtale* chathistorik* chatlogg*"),
    (N_TOOL, "værktøj* verktøy*"),
    (N_ALT, "anden annen andre i+stedet i+stedenfor"),
    (HYPE, "pålidelige pålitelige eneste+pålidelige"),
    (FALSE, "ustabile ustabil"),
    (DEPREC, "ude+af+drift ute+av+drift"),
    (V_READ | BASE, "åbne læse lese"),
    (V_PUT | BASE, "indsætte sette+inn"),
    (NEG, "behøver+ikke trenger+ikke"),
    (V_TELL, "nævnes nevnes"),
    (N_DATA, "personoplysninger personopplysninger persondata"),
    (
        N_SAFEGUARD,
        "bekræftelse bekreftelse godkendelse godkjenning",
    ),
    (PHISH, "udløbet utløpt spærret sperret"),
    (AUTO, "automatisk"),
    (ALSO, "også"),
    (SOLICIT, "be+om bed+om"),
    (
        PROTECT,
        "spørge spørre spørg spør samtykke tilladelse tillatelse vent+på",
    ),
    (V_HIDE | BASE, "holdes+skjult hemmeligholdes"),
    (ALSO, "i+tillegg derudover"),
    (
        N_STRONG,
        "engangskode engangskoden sekssifret sekscifret verifiseringskode bekræftelseskode pinkode",
    ),
    (N_DATA, "fødselsnummer personnummer cpr-nummer"),
    (N_ROUTE, "bankkontonummer kontonummer mottaker modtager"),
    (
        SELF,
        "dette+værktøj dette+verktøyet dette+verktøy denne+server denne+serveren",
    ),
    (N_TOOL, "serveren tjeneste*"),
    // Finnish (cases and possessives join the word: stems).
    (YOU, "sinä sinun sinua teidän"),
    (AGENT, "avustaja* assistentti* tekoäly*"),
    (USER, "käyttäjä* asiaka* asiakkaa*"),
    (MODAL, "täytyy pakollinen* välttämättä on+pakko"),
    (ALWAYS, "aina joka+kerta"),
    (NEVER | NEG, "koskaan"),
    (NEG, "älä älkää ilman"),
    (COND, "jos ennen"),
    (ALLQ, "kaikki kaikkien koko jokainen"),
    (SEQ, "ensin sitten seuraavaksi"),
    (V_RUN | BASE, "suorita* aja"),
    (V_SEND | BASE, "lähetä lähettä* välitä välittä*"),
    (V_PUT | BASE, "liitä sisällytä kopioi lisää"),
    (V_TELL | BASE, "kerro kerto* ilmoita sano mainitse mainits*"),
    (V_HIDE | BASE, "piilota salaa"),
    (V_DISABLE | BASE, "ohita poista+käytöstä"),
    (V_IGNORE | BASE, "unohda jätä+huomiotta"),
    (V_READ | BASE, "lukee avaa kerää"),
    (V_CALL | BASE, "kutsu käytä"),
    (
        N_SECRET,
        "salasan* kirjautumistie* tunnukse* avaime* tunnistetie*",
    ),
    (N_CONVO, "keskustelu* viestihistori*"),
    (N_TOOL, "työkalu*"),
    (N_ALT, "muut muiden toinen"),
    (N_DATA, "henkilötie* tiedot"),
    (N_LOCAL, "tiedosto* kansio*"),
    (N_SAFEGUARD, "vahvistu* vahvistukse* hyväksyntä*"),
    (PHISH, "vanhentunut lukittu jäädytetty"),
    (AUTO, "automaattisesti huomaamatta"),
    (ONLY, "vain ainoastaan"),
    (ALSO, "myös lisäksi"),
    (NEG, "ei+saa ei+tarvitse ei+ole ei+pidä ei+tule äläkä"),
    (NEG | V_TELL | DISCLOSE, "ei+kerrota ei+mainita"),
    (V_PUT | BASE, "liittää lisätään liitetään"),
    // The necessive passive is a rule ("on asetettava": is to be set).
    (V_ALTER | BASE | MODAL, "asetettava muutettava"),
    (V_DISABLE | BASE | MODAL, "ohitettava"),
    (V_SEND | BASE | MODAL, "lähetettävä välitettävä"),
    (V_PUT | BASE | MODAL, "liitettävä lisättävä"),
    (V_READ | BASE | MODAL, "luettava"),
    (V_CALL | BASE | MODAL, "käytettävä"),
    (V_TELL | BASE | MODAL, "kerrottava"),
    (V_PREFER | BASE, "ehdota suosittele"),
    (
        SELF,
        "tätä+työkalua tämä+työkalu tämän+työkalun tämä+palvelin",
    ),
    (N_TOOL, "palvelim*"),
    (N_ALT, "vaihtoeh*"),
    (N_SAFEGUARD, "tarkistukse* tarkistu*"),
    (PROTECT, "suostumu* kysy+ensin lupa luvan odota"),
    (FALSE, "vaarallis*"),
    // Hungarian ("ha", "if", and "te", "you", are other languages' words).
    (YOU, "neked téged önnek öntől"),
    (AGENT, "asszisztens*"),
    (USER, "felhasználó* ügyfél* ügyfel*"),
    (MODAL, "kell kötelező* muszáj szükséges"),
    (ALWAYS, "mindig minden+alkalommal"),
    (NEVER | NEG, "soha sose sohase"),
    (
        NEG,
        "nélkül nem+kell nem+szükséges nem+mondja nem+mondd nem+szabad+elmondani",
    ),
    (COND, "amikor mielőtt miután"),
    (ALLQ, "összes minden teljes"),
    (SEQ, "először aztán ezután"),
    (V_RUN | BASE, "futtas* hajtsd+végre hajtsa+végre"),
    (V_SEND | BASE, "küld* továbbít* töltsd+fel töltse+fel"),
    (
        V_PUT | BASE,
        "illeszd+be illessze+be csatold csatolja másold másolja add+hozzá adja+hozzá",
    ),
    (
        V_TELL | BASE,
        "mondd mondja közöld közölje tájékoztas* értesít* említ*",
    ),
    (V_HIDE | BASE, "rejts* titkol* elhallgat*"),
    (
        V_DISABLE | BASE,
        "kapcsold+ki kapcsolja+ki hagyd+ki hagyja+ki kerüld+meg",
    ),
    (V_IGNORE | BASE, "figyelmen+kívül felejtsd+el"),
    (V_READ | BASE, "olvasd olvassa nyisd+meg nyissa+meg gyűjtsd"),
    (V_CALL | BASE, "hívd hívja használd használja"),
    (
        N_SECRET,
        "jelszó* jelszav* hitelesítő* bejelentkezési+adat*",
    ),
    (N_CONVO, "beszélgetés* csevegés* üzenet*"),
    (N_TOOL, "eszköz*"),
    (N_ALT, "másik* többi"),
    (N_DATA, "személyes+adatok adatok adatait"),
    (N_LOCAL, "fájl* mappa*"),
    (N_SAFEGUARD, "megerősítés* jóváhagyás*"),
    (PHISH, "lejárt zárolva felfüggesztve"),
    (AUTO, "automatikusan csendben"),
    (ONLY, "csak kizárólag"),
    (ALSO, "továbbá szintén"),
    (V_TELL | BASE | SOLICIT, "kér* kérd*"),
    (NEG | MODAL, "nem+szabad"),
    (
        N_STRONG,
        "kártyaszám* háromjegyű biztonsági+kód* egyszer+használatos",
    ),
    (V_SEND | BASE, "adja+át add+át átkerül*"),
    (
        EXTERNAL,
        "külső partnerhez partnernek partnerek partnereknek",
    ),
    (PARTY, "hirdetési"),
    (
        PROTECT,
        "hozzájárulás* beleegyezés* engedély* várja+meg várd+meg",
    ),
    (DESTRUCTIVE, "töröl* törli"),
    (SELF, "ez+az+eszköz ezt+az+eszközt ennek+az+eszköznek"),
    (N_TOOL, "szerver*"),
    // Malay, beyond the Indonesian words it shares.
    (YOU, "awak"),
    (AGENT, "pembantu"),
    (MODAL, "mesti"),
    (ALWAYS, "sentiasa"),
    (COND, "apabila selepas"),
    (SEQ, "kemudian seterusnya"),
    (V_SEND | BASE, "hantar hantarkan dihantar muat+naik"),
    (V_PUT | BASE, "lampirkan masukkan"),
    (V_TELL | BASE, "beritahu maklumkan nyatakan"),
    (V_HIDE | BASE, "sembunyikan rahsiakan"),
    (V_DISABLE | BASE, "lumpuhkan langkau"),
    (V_IGNORE | BASE, "abaikan"),
    (V_READ | BASE, "baca"),
    (N_SECRET, "kata+laluan kelayakan"),
    (N_CONVO, "perbualan sembang"),
    (N_DATA, "maklumat+peribadi data+peribadi"),
    (N_SAFEGUARD, "pengesahan kelulusan"),
    (PROTECT, "kebenaran"),
    (PHISH, "tamat+tempoh disekat digantung"),
    (MODAL, "hendaklah"),
    (V_CALL | BASE, "memanggil"),
    (N_CMD, "arahan"),
    (SEQ, "terlebih+dahulu"),
    (V_PUT | BASE, "menyalin salin"),
    (V_TELL | BASE, "dimaklumkan memaklumkan"),
    (ALLQ, "keseluruhan"),
    (SELF, "pelayan+ini"),
    (N_TOOL, "pelayan"),
];

/// Chinese and Japanese, matched as substrings.
const UNSPACED: &[(Cues, &str)] = &[
    (
        DETECT,
        "检测 檢測 识别 識別 侦测 偵測 检出 検出 検知 判定する 扫描 掃描 スキャン",
    ),
    (EXAMPLE, "例如 比如 诸如 諸如 例えば たとえば 举例 舉例"),
    (YOU, "你 您 あなた 君"),
    (
        AGENT,
        "助手 模型 智能体 智能體 アシスタント モデル エージェント",
    ),
    (USER, "用户 用戶 使用者 ユーザー 利用者 顧客 客户"),
    (
        MODAL,
        "必须 必須 务必 務必 一定要 需要 应该 應該 しなければ 必ず なければならない 必要があります ください",
    ),
    (ALWAYS, "总是 總是 始终 始終 每次 常に いつも 毎回"),
    (SELF, "本ツール このツール"),
    // "ユーザーが別のツールを指定しても" (even if the user names another
    // tool), "无论用户…" (whatever the user…).
    (
        OVERRIDE_USER,
        "指定しても 无论用户 無論用戶 不管用户 不管用戶",
    ),
    (NEVER, "永远不要 永遠不要 決して 絶対に"),
    (
        NEG,
        "不要 不得 切勿 请勿 請勿 别 別 ない ないで 禁止 不应 不應 无需 無需 不必 勿 不会 不會 并不 並不 绝不 絕不 从不 從不 不出售 不共享 不分享 不提供 ません",
    ),
    (SOLICIT, "索取 索要 询问 詢問 尋ね 聞き出 求めない"),
    (PLEASE, "请 請 ください"),
    (
        COND,
        "当 當 如果 之后 之後 之前 以后 时 時 場合 とき 後で 前に",
    ),
    (ALLQ, "所有 全部 任何 每个 每個 すべて 全て"),
    (SEQ, "首先 先 然后 然後 まず 次に"),
    (ALSO, "同时 同時 也 抄送 副本 また"),
    (V_RUN | BASE, "运行 運行 执行 執行 実行"),
    (
        V_CALL | BASE,
        "调用 調用 使用 呼び出 使って 使用して 使わ 使う",
    ),
    (V_CONTACT | BASE, "访问 訪問 打开链接 アクセス"),
    (
        V_SEND | BASE,
        "发送 發送 转发 轉發 上传 上傳 提交 附加 附上 传给 傳給 送信 転送 アップロード 添付 発送",
    ),
    // A copy that ends up elsewhere, told as a fact.
    (V_SEND, "同步到 同步至 同步给 复制到 複製され 同期され 抄送"),
    // Putting a value somewhere by hand.
    (
        V_PUT | BASE,
        "粘贴 粘貼 贴到 貼到 填入 填进 填進 填到 写入 寫入 貼り付け コピーして に設定",
    ),
    (
        V_READ | BASE,
        "读取 讀取 打开 打開 获取 獲取 收集 读出 読み取 読み込 収集 取得",
    ),
    (
        V_TELL | BASE,
        "告诉 告訴 告知 通知 回答 回复 回覆 伝え 伝えて 答え 知らせ",
    ),
    (
        V_HIDE | BASE,
        "隐藏 隱藏 隐瞒 隱瞞 瞒着 瞞著 不要提及 隠し 隠して 秘密に 言わない",
    ),
    (
        V_DISABLE | BASE,
        "关闭 關閉 禁用 跳过 跳過 绕过 繞過 無効 オフに スキップ",
    ),
    (
        V_ALTER | BASE,
        "修改 更改 替换 替換 添加 加上 改为 改為 変更 置き換え 追加",
    ),
    // A value told as changed: "書き換えられ", "自動的に60％に引き下げ",
    // "被改成".
    (V_ALTER, "書き換え 引き下げ 引き上げ 減額 増額 付加 改成"),
    (V_IGNORE | BASE, "忽略 無視 无视 忽视 忽視"),
    (
        V_PREFER | BASE,
        "优先使用 優先使用 优先 優先 选择 選擇 選んで",
    ),
    (V_COLLECT, "收集 窃取 竊取 记录 記錄 収集 盗"),
    (
        N_SECRET,
        "密码 密碼 密钥 密鑰 私钥 私鑰 令牌 访问令牌 訪問令牌 凭证 憑證 凭据 憑據 パスワード 認証情報 トークン 秘密鍵 助记词 助記詞",
    ),
    (
        N_CONVO,
        "对话 對話 聊天记录 聊天記錄 会话 會話 会話 履歴 チャット 系统提示 系統提示 システムプロンプト",
    ),
    (
        N_SAFEGUARD,
        "确认 確認 安全 过滤 過濾 审批 審批 承認 フィルター",
    ),
    (N_TOOL, "工具 ツール 服务器 服務器 サーバー"),
    (N_ALT, "其他 别的 別的 他の 別の 代わりに 而不是 代替"),
    (DEPREC, "已弃用 已棄用 废弃 廢棄 停用 非推奨 廃止 已停止"),
    (HYPE, "最好 最佳 最可靠 最信赖 最值得信赖 第一 最高 唯一"),
    (
        PHISH,
        "过期 過期 失效 冻结 凍結 验证 驗證 重新输入 重新輸入 期限切れ 再入力 確認してください",
    ),
    (COMPETITOR, "竞争对手 競爭對手 竞品 競合 ライバル"),
    (
        FALSE,
        "倒闭 倒閉 关闭服务 停止服务 诈骗 詐騙 破産 サービス終了",
    ),
    (USER, "用户的 用戶的"),
    (
        PROTECT,
        "征得 同意后 确认后 询问用户 先询问 徵得 確認してください 確認を取 許可を得 同意を得 ユーザーに確認",
    ),
    (SELL, "卖给 出售 售卖 转卖 販売 売却"),
    (DESTRUCTIVE, "删除 刪除 削除 清空 抹消 消去"),
    (MONEY, "送金 支払 振込 決済 付款 支付 转账 轉帳 汇款 匯款"),
    (
        EXTERNAL | PARTY,
        "广告公司 广告商 广告主 广告合作伙伴 広告会社 広告主 広告ネットワーク データブローカー 数据经纪",
    ),
    (PARTY, "数据公司"),
    // Handing on, denied: matched as one pattern, longer than the verb
    // inside it, the phrase reads as a negation and not as the act.
    (
        NEG,
        "不出售 不会出售 不會出售 绝不出售 絕不出售 不卖给 不会卖给 不共享 不会共享 不會共享 不分享 不会分享 不提供给 不会提供给 不會提供給 不会发送 不會發送 不会上传 不转售 不会转售 販売しません 販売いたしません 売却しません 提供しません 提供いたしません 共有しません 送信しません 第三者に提供しません 第三者提供しません",
    ),
    // Partners, Chinese and Japanese. (Purposes such as "精准营销" are left
    // out: the learned model reads no negation in these scripts, and "不用于
    // 精准营销" would read as the act.)
    (
        EXTERNAL,
        "第三方 合作伙伴 合作機構 合作机构 合作方 合作公司 合作夥伴 第三者 提携先 提携企業 提携会社 パートナー企業",
    ),
    (V_SEND, "提供给 提供給 へ提供 に提供"),
    (
        N_DATA,
        "位置信息 地址 电话号码 住所 電話番号 位置情報 录音 録音",
    ),
];

/// Thai, added after the learned model was trained (see [`LATER`]).
const LATER_UNSPACED: &[(Cues, &str)] = &[
    // Thai. Words that hold a shorter one of another meaning are listed
    // without cues, so that the longest match wins: อย่าง ("way") is no
    // อย่า ("don't"), ถูกต้อง ("correct") no ต้อง ("must"), คุณภาพ
    // ("quality") no คุณ ("you").
    (0, "อย่าง ถูกต้อง คุณภาพ คุณสมบัติ คุณค่า"),
    (YOU, "คุณ"),
    (AGENT, "ผู้ช่วย โมเดล เอเจนต์"),
    (USER, "ผู้ใช้ ลูกค้า"),
    (MODAL, "ต้อง จำเป็น ควร"),
    (ALWAYS, "เสมอ ทุกครั้ง"),
    (NEVER | NEG, "ห้าม อย่า"),
    (NEG, "ไม่"),
    (COND, "เมื่อ ถ้า หาก"),
    (ALLQ, "ทั้งหมด ทุก"),
    (SEQ, "ก่อนอื่น จากนั้น"),
    (V_RUN | BASE, "รัน"),
    (V_SEND | BASE, "ส่ง อัปโหลด"),
    (V_PUT | BASE, "แนบ ใส่ เพิ่ม คัดลอก"),
    (V_TELL | BASE, "บอก แจ้ง"),
    (V_HIDE | BASE, "ซ่อน ปกปิด"),
    (V_DISABLE | BASE, "ปิดใช้ ปิดการ ข้าม"),
    (V_IGNORE | BASE, "เพิกเฉย ละเว้น"),
    (V_READ | BASE, "อ่าน"),
    (V_CALL | BASE, "เรียกใช้"),
    (N_SECRET, "รหัสผ่าน โทเค็น คีย์ ข้อมูลรับรอง"),
    (N_CONVO, "บทสนทนา การสนทนา ประวัติแชท"),
    (N_TOOL, "เครื่องมือ"),
    (N_ALT, "อื่น"),
    (N_DATA, "ข้อมูลส่วนตัว ข้อมูลส่วนบุคคล"),
    (N_LOCAL, "ไฟล์ โฟลเดอร์"),
    (N_SAFEGUARD, "การยืนยัน"),
    (PHISH, "หมดอายุ ถูกระงับ"),
    (AUTO, "อัตโนมัติ"),
    (ONLY, "เท่านั้น"),
    (V_READ | BASE, "เปิดไฟล์"),
    (SOLICIT, "พิมพ์ ขอให้ผู้ใช้"),
    (DEPREC, "ยกเลิก ใช้งานไม่ได้"),
    (FALSE, "มัลแวร์"),
    (SELF, "เครื่องมือนี้ เซิร์ฟเวอร์นี้"),
    (N_TOOL, "เซิร์ฟเวอร์"),
    (V_ALTER | BASE, "ตั้งค่า"),
    (PROTECT, "ความยินยอม ขออนุญาต ยืนยัน อนุมัติ"),
];

/// Whether `w` has an apostrophe (straight or curly) within its first
/// eight bytes, after the first: only such a word may be [`elided`].
#[inline(always)]
fn may_be_elided(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() > 2
        && b[1..b.len().min(8)]
            .iter()
            .any(|&c| c == b'\'' || c == 0xE2)
}

/// A French or Italian word after an elided article, pronoun or
/// negation ("l'utilisateur", "d'autres", "n'envoie", "dell'utente",
/// "un'altra"): whether the elided word is "ne", and the rest.
fn elided(w: &str) -> Option<(bool, &str)> {
    let b = w.as_bytes();
    // Most words have no apostrophe within their first seven bytes.
    let at = b.iter().take(7).position(|&c| c == b'\'' || c == 0xE2)?;
    let rest = match &b[at..] {
        [b'\'', ..] => &w[at + 1..],
        [0xE2, 0x80, 0x99, ..] => &w[at + 3..],
        _ => return None,
    };
    let head = &w[..at];
    let known = matches!(
        head,
        "l" | "d"
            | "n"
            | "s"
            | "j"
            | "m"
            | "t"
            | "c"
            | "qu"
            | "jusqu"
            | "lorsqu"
            | "puisqu"
            | "dell"
            | "all"
            | "nell"
            | "sull"
            | "dall"
            | "un"
            | "quest"
            | "po"
    );
    // "n'importe quel …" (any …) denies nothing.
    (known && !rest.is_empty()).then_some((head == "n" && !rest.starts_with("importe"), rest))
}

/// What the vocabulary knows of one key.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    /// Cues of the key as a whole word or phrase.
    cues: Cues,
    /// Whether the key is a word or phrase of the vocabulary (a key can
    /// also be only the first word of a phrase).
    listed: bool,
    /// The longest phrase (in words) that starts with the key, 0 if none.
    phrase_len: usize,
    /// The key's roles in a sentence's marks (`super::word_marks`), kept
    /// here so that reading a word finds them in the same look-up.
    roles: u32,
    /// Whether the key solicits in a language other than English: every
    /// such word is a verb of asking someone for something ("pedir",
    /// "erfragen"), where the English ones are broader ("type", "share").
    asks_for: bool,
}

/// The compiled vocabulary.
pub struct Lexicon {
    /// Whole words and phrases (phrases keyed with single spaces), and the
    /// first words of phrases: one map, so that reading a word looks it up
    /// once for both.
    words: WordMap<&'static str, Entry>,
    /// Stems, matched anchored at a word's start, longest first.
    stems: AhoCorasick,
    stem_cues: Vec<Cues>,
    /// The first two bytes of every stem, as a set of 65,536 bits: a word
    /// that opens with two bytes no stem opens with starts with no stem,
    /// and is not run through the automaton (most English words).
    stem_heads: Vec<u64>,
    /// The first three bytes of every stem, hashed into 65,536 bits: a
    /// second sieve for the two-byte heads English shares with the Latin
    /// script's stems ("ad…", "tr…", "sp…").
    stem_heads3: Vec<u64>,
    /// Two-byte heads that are a whole stem (and pass the second sieve).
    short_heads: Vec<u64>,
    /// Substrings for scripts without spaces.
    unspaced: AhoCorasick,
    unspaced_cues: Vec<Cues>,
}

/// The vocabulary, built once.
pub static LEXICON: LazyLock<Lexicon> = LazyLock::new(Lexicon::build);

impl Lexicon {
    fn build() -> Lexicon {
        let mut words: WordMap<&'static str, Entry> = WordMap::default();
        let list = |words: &mut WordMap<&'static str, Entry>, key: &'static str, cues: Cues| {
            let entry = words.entry(key).or_default();
            entry.cues |= cues;
            entry.listed = true;
        };
        let mut stems: Vec<String> = Vec::new();
        let mut stem_cues: Vec<Cues> = Vec::new();
        let mut phrases_owned: Vec<(&'static str, Cues)> = Vec::new();
        let tables = ENGLISH
            .iter()
            .chain(OTHERS)
            .chain(STEMS)
            .map(|r| (r, false));
        for (&(cues, row), later) in tables.chain(LATER.iter().map(|r| (r, true))) {
            let cues = other_language_disclosure(cues, row);
            // What the model was trained on keeps its cues unmarked.
            let untrained = if later { UNTRAINED } else { 0 };
            let asks_for = cues & SOLICIT != 0 && !is_english(row);
            for entry in row.split_whitespace().map(plain_form) {
                if let Some(stem) = entry.strip_suffix('*') {
                    // A stem listed in several rows carries all their cues
                    // (the automaton reports one pattern per match).
                    match stems.iter().position(|s| s == stem) {
                        Some(k) => stem_cues[k] |= cues,
                        None => {
                            stems.push(stem.to_string());
                            stem_cues.push(cues | untrained);
                        }
                    }
                } else if entry.contains('+') {
                    let known = later && phrases_owned.iter().any(|(e, _)| *e == entry);
                    phrases_owned.push((entry, if known { cues } else { cues | untrained }));
                } else {
                    let known = words.get(entry).is_some_and(|e| e.listed);
                    list(
                        &mut words,
                        entry,
                        if known { cues } else { cues | untrained },
                    );
                    words.entry(entry).or_default().asks_for |= asks_for;
                }
            }
        }
        // Phrases are keyed with spaces; the `+` spelling is leaked once into
        // a 'static string (the table is built once per process).
        for (entry, cues) in phrases_owned {
            let spaced: &'static str = Box::leak(entry.replace('+', " ").into_boxed_str());
            let len = spaced.split(' ').count();
            let head = spaced.split(' ').next().unwrap_or(spaced);
            let slot = &mut words.entry(head).or_default().phrase_len;
            *slot = (*slot).max(len);
            // A key that is no word of the vocabulary reads as an absent
            // one (`listed` stays false, cues 0), as the word roles below.
            if let Some(second) = spaced.split(' ').nth(1) {
                words.entry(second).or_default().roles |= super::wm::SECOND;
            }
            list(&mut words, spaced, cues);
        }
        // Word roles add keys that are no word of the vocabulary (`listed`
        // stays false, cues 0): such a key reads as an absent one.
        for &(bit, row) in super::WORD_MARK_LISTS {
            for w in row.split_whitespace() {
                words.entry(w).or_default().roles |= bit;
            }
        }
        let mut stem_heads = vec![0u64; 1 << 10];
        let mut stem_heads3 = vec![0u64; 1 << 10];
        let mut short_heads = vec![0u64; 1 << 10];
        let set = |bits: &mut [u64], at: usize| bits[at >> 6] |= 1 << (at & 63);
        for stem in &stems {
            match stem.as_bytes() {
                [a, b, rest @ ..] => {
                    let head = usize::from(*a) << 8 | usize::from(*b);
                    set(&mut stem_heads, head);
                    match rest.first() {
                        Some(_) => set(&mut stem_heads3, head3(stem.as_bytes())),
                        None => set(&mut short_heads, head),
                    }
                }
                // A stem of one byte could open any word.
                _ => {
                    stem_heads.fill(u64::MAX);
                    short_heads.fill(u64::MAX);
                }
            }
        }
        let stems_ac = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .start_kind(aho_corasick::StartKind::Anchored)
            .build(&stems)
            .expect("stem automaton builds");
        let mut unspaced: Vec<&'static str> = Vec::new();
        let mut unspaced_cues = Vec::new();
        let tables = UNSPACED
            .iter()
            .map(|r| (r, 0))
            .chain(LATER_UNSPACED.iter().map(|r| (r, UNTRAINED)));
        for (&(cues, row), untrained) in tables {
            let cues = other_language_disclosure(cues, row);
            for entry in row.split_whitespace().map(plain_form) {
                match unspaced.iter().position(|u| *u == entry) {
                    Some(k) => unspaced_cues[k] |= cues,
                    None => {
                        unspaced.push(entry);
                        unspaced_cues.push(cues | untrained);
                    }
                }
            }
        }
        let unspaced_ac = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(&unspaced)
            .expect("unspaced automaton builds");
        Lexicon {
            words,
            stems: stems_ac,
            stem_cues,
            stem_heads,
            stem_heads3,
            short_heads,
            unspaced: unspaced_ac,
            unspaced_cues,
        }
    }

    /// Cues of one word (exact, else the longest stem that starts it), with
    /// those of its ending in Korean (mood and obligation are endings there).
    pub fn word(&self, w: &str) -> Cues {
        self.word_and_phrase_len(w).0
    }

    /// [`Lexicon::word`] and [`Lexicon::phrase_len`] of one word, and its
    /// roles in a sentence's marks (`super::word_marks`), from one look-up
    /// (a text's reading asks all three of every word).
    pub fn word_and_phrase_len(&self, w: &str) -> (Cues, usize, u32) {
        let entry = self.words.get(w).copied().unwrap_or_default();
        // An elided word that opens a phrase ("l'accord de l'utilisateur")
        // or goes on with one ("conferma dell'utente") keeps that entry's
        // phrase and roles besides the cues of the word after the elision.
        if !entry.listed && may_be_elided(w) {
            if let Some((cues, _, roles)) = self.elided_word(w) {
                return (cues, entry.phrase_len, roles | entry.roles);
            }
        }
        (self.word_from(w, entry), entry.phrase_len, entry.roles)
    }

    /// "n'utilise", "d'autres", "l'utente": the word after the elided
    /// article, pronoun or "ne" (which denies it). Out of line: few words
    /// have an apostrophe, and the common path stays small.
    #[cold]
    #[inline(never)]
    fn elided_word(&self, w: &str) -> Option<(Cues, usize, u32)> {
        let (denied, rest) = elided(w)?;
        let inner = self.words.get(rest).copied().unwrap_or_default();
        let neg = if denied { NEG } else { 0 };
        Some((self.word_from(rest, inner) | neg, 0, inner.roles))
    }

    /// Whether `w`, read as soliciting, is a verb of asking someone for
    /// something in a language other than English: a listed word of the
    /// other languages' tables, or any word outside ASCII (the stems and
    /// substrings of the scripts without ASCII letters, none of them
    /// English).
    pub fn asks_for_outside_english(&self, w: &str) -> bool {
        !w.is_ascii() || self.words.get(w).is_some_and(|e| e.asks_for)
    }

    /// The roles of `w` in a sentence's marks (`super::word_marks`), 0 for
    /// most words.
    pub fn roles(&self, w: &str) -> u32 {
        self.words.get(w).map_or(0, |e| e.roles)
    }

    /// The cues of `w`, whose entry in the map (or its absence) is `entry`.
    fn word_from(&self, w: &str, entry: Entry) -> Cues {
        // Only a word that ends outside ASCII has a Korean or Hindi ending.
        let foreign_end = w.len() >= 6 && w.as_bytes()[w.len() - 1] >= 0x80;
        let ending = if foreign_end { korean_ending(w) } else { 0 };
        // What a Hindi or Korean ending makes of the word's cues. "물어보면"
        // (if they ask) is what someone says, not a request to ask them: a
        // verb of asking in a condition is speech.
        let mood = |cues: Cues| {
            if !foreign_end {
                return cues;
            }
            let cues = hindi_mood(w, cues);
            if ending & COND != 0 && cues & (SOLICIT | PROTECT) != 0 {
                cues & !(SOLICIT | PROTECT) | MENTION
            } else {
                cues
            }
        };
        if entry.listed {
            return mood(entry.cues | ending);
        }
        // Stems only for words long enough to carry an ending.
        if w.len() < 4 {
            return ending;
        }
        let head = usize::from(w.as_bytes()[0]) << 8 | usize::from(w.as_bytes()[1]);
        let has = |bits: &[u64], at: usize| bits[at >> 6] & (1 << (at & 63)) != 0;
        if !has(&self.stem_heads, head)
            || (!has(&self.short_heads, head) && !has(&self.stem_heads3, head3(w.as_bytes())))
        {
            return ending;
        }
        mood(
            ending
                | match self.stems.find(Input::new(w).anchored(Anchored::Yes)) {
                    Some(m) => self.stem_cues[m.pattern().as_usize()],
                    None => 0,
                },
        )
    }

    /// The longest phrase that starts with `head`, if any (in words).
    pub fn phrase_len(&self, head: &str) -> usize {
        self.words.get(head).map_or(0, |e| e.phrase_len)
    }

    /// Cues of a phrase spelled with single spaces.
    pub fn phrase(&self, spaced: &str) -> Cues {
        self.words.get(spaced).map_or(0, |e| e.cues)
    }

    /// Cues found as substrings in unspaced text, with their byte ranges.
    pub fn unspaced<'a>(
        &'a self,
        text: &'a str,
    ) -> impl Iterator<Item = (std::ops::Range<usize>, Cues)> + 'a {
        self.unspaced
            .find_iter(text)
            .map(|m| (m.range(), self.unspaced_cues[m.pattern().as_usize()]))
    }
}

/// Korean verb endings that carry the mood: polite imperatives ("-세요",
/// "-십시오"), obligation ("-해야"), prohibition ("-지 마세요") and
/// conditions ("-으면", "-하면"). A word of at least two syllables only.
const KOREAN_ENDINGS: &[(&str, Cues)] = &[
    ("마세요", NEG | PLEASE),
    ("마십시오", NEG | PLEASE),
    ("말고", NEG),
    ("주세요", PLEASE | BASE),
    ("주십시오", PLEASE | BASE),
    ("세요", PLEASE | BASE),
    ("십시오", PLEASE | BASE),
    ("하라", PLEASE | BASE),
    ("해라", PLEASE | BASE),
    ("할것", MODAL),
    ("해야", MODAL),
    ("어야", MODAL),
    ("아야", MODAL),
    ("여야", MODAL),
    ("돼야", MODAL),
    ("내야", MODAL),
    ("줘야", MODAL),
    ("써야", MODAL),
    // The dative of a person ("보호자에게", "점주한테"): whoever is addressed
    // or asked is a user of the tool.
    ("에게", USER),
    ("한테", USER),
    ("보면", COND),
    ("으면", COND),
    ("하면", COND),
    ("되면", COND),
    ("나면", COND),
    ("라면", COND),
    ("거든", COND),
];

/// The cues of a Korean word's ending. A prohibition is also a word of its
/// own: "-지 마세요" is written with a space ("전달하지 마세요"), and read
/// as "-세요" it would turn "do not forward" into a polite request.
fn korean_ending(w: &str) -> Cues {
    KOREAN_ENDINGS
        .iter()
        .find(|(e, c)| (w.len() > e.len() || (c & NEG != 0 && w == *e)) && w.ends_with(e))
        .map_or(0, |(_, c)| *c)
}

/// Hindi verb endings that carry a request: the polite imperative
/// ("भेजें", "बताएँ", "भेजिए") and the familiar one ("भेजो").
const HINDI_IMPERATIVE: &[&str] = &["ें", "एं", "एँ", "िए", "िये", "ो"];

/// The cues of a Hindi word read with its ending: a verb (its stem gave it
/// a verb cue) in the imperative is a request, as a Korean "-세요" is.
/// Nouns and postpositions with the same endings ("फ़ाइलें", "में") carry
/// no verb and gain nothing.
fn hindi_mood(w: &str, cues: Cues) -> Cues {
    if cues & super::VERBS != 0
        && w.starts_with(super::segment::devanagari)
        && HINDI_IMPERATIVE
            .iter()
            .any(|e| w.len() > e.len() && w.ends_with(e))
    {
        cues | PLEASE | BASE
    } else {
        cues
    }
}

/// Whether `row` is one of the English table's.
/// The first three bytes of `b` (at least three long), hashed to 16 bits.
fn head3(b: &[u8]) -> usize {
    let v = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
    (v.wrapping_mul(0x9E37_79B1) >> 16) as usize
}

/// An entry as the text it is matched against is spelled: NFKC (Thai
/// "ำ" is "ํ" and "า" there, Bengali "য়" a "য" with a nukta). Most
/// entries are already; the others are leaked once, as the table is built
/// once per process.
fn plain_form(entry: &'static str) -> &'static str {
    use unicode_normalization::UnicodeNormalization;
    if entry.is_ascii() || unicode_normalization::is_nfkc(entry) {
        entry
    } else {
        Box::leak(entry.nfkc().collect::<String>().into_boxed_str())
    }
}

fn is_english(row: &str) -> bool {
    ENGLISH.iter().any(|(_, r)| std::ptr::eq(*r, row))
}

/// Outside English, every verb of telling counts as disclosure (the tables
/// there are short), but for the verbs of asking of the later languages,
/// listed as English "ask" is: telling and soliciting.
fn other_language_disclosure(cues: Cues, row: &str) -> Cues {
    if !is_english(row) && cues & V_TELL != 0 && cues & SOLICIT == 0 {
        cues | DISCLOSE
    } else {
        cues
    }
}

/// The names of the cues in a set, for messages and tests.
pub fn names(cues: Cues) -> Vec<&'static str> {
    ALL.iter()
        .filter(|(_, c)| cues & c != 0)
        .map(|(n, _)| *n)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_phrases_and_stems_carry_their_cues() {
        let l = &*LEXICON;
        assert!(l.word("must") & MODAL != 0);
        assert!(l.word("send") & (V_SEND | BASE) == V_SEND | BASE);
        assert!(l.word("sends") & BASE == 0);
        assert!(l.phrase("turn off") & V_DISABLE != 0);
        assert!(l.phrase_len("turn") >= 2);
        assert!(l.word("exfiltrating") & V_SEND != 0);
        assert!(l.word("отправьте") & V_SEND != 0);
        // Pronouns joined to the verb, and copies told as facts.
        assert!(l.word("indícale") & (V_TELL | BASE) == V_TELL | BASE);
        assert!(l.word("dis-lui") & (V_TELL | BASE) == V_TELL | BASE);
        assert!(l.word("espelhados") & V_SEND != 0);
        assert!(l.word("gespiegelt") & V_SEND != 0);
        assert!(l.word("gönderildi") & V_SEND != 0);
        assert_eq!(l.word("zzzz"), 0);
        let found: Vec<_> = l.unspaced("请把密码发送到").map(|(_, c)| c).collect();
        assert!(found.iter().any(|c| c & N_SECRET != 0));
        assert!(found.iter().any(|c| c & V_SEND != 0));
    }

    #[test]
    fn the_later_languages_are_marked_untrained_where_nothing_earlier_lists_them() {
        let l = &*LEXICON;
        // Ukrainian only: marked, and read.
        assert_eq!(l.word("ніколи") & (NEVER | UNTRAINED), NEVER | UNTRAINED);
        assert!(l.word("надіслати") & (V_SEND | UNTRAINED) == V_SEND | UNTRAINED);
        // Listed by German before Danish lists it: the model knows it.
        assert!(l.word("alle") & ALLQ != 0);
        assert_eq!(l.word("alle") & UNTRAINED, 0);
        // A Russian stem a Ukrainian word also opens with stays unmarked.
        assert_eq!(l.word("пароль") & UNTRAINED, 0);
        // Thai "จำเป็น" (necessary) as NFKC spells it ("ำ" is "ํ" + "า").
        let thai: String = unicode_normalization::UnicodeNormalization::nfkc("ต้องจำเป็น").collect();
        let found: Vec<_> = l.unspaced(&thai).map(|(_, c)| c).collect();
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found
                .iter()
                .all(|c| c & (MODAL | UNTRAINED) == MODAL | UNTRAINED)
        );
        // A longer word of another meaning wins over the shorter one
        // inside it: "อย่าง" (way) is no "อย่า" (don't).
        assert!(l.unspaced("อย่างไร").all(|(_, c)| c & NEG == 0));
        assert!(l.unspaced("อย่าส่ง").any(|(_, c)| c & NEG != 0));
    }

    #[test]
    fn every_cue_has_a_distinct_bit() {
        let mut seen: Cues = 0;
        for (_, c) in ALL {
            assert_eq!(seen & c, 0);
            seen |= c;
        }
    }
}
