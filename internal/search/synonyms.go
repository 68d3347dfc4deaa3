package search

// synonyms are groups of words that mean the same thing in code, so that
// a query's "remove" also reads delete and "validate" also reads check.
// The table was written from general programming vocabulary before any
// benchmark query or annotation was looked at, and is not to be edited
// to fit a benchmark's misses: it is meant to carry to code nobody has
// measured. Only words whose meanings coincide in code, no domain words;
// abbreviations are abbrev.go's.
var synonyms = [][]string{
	// Verbs of the life of a thing.
	{"create", "make", "new", "build", "construct", "instantiate"},
	{"remove", "delete", "erase", "evict", "drop"},
	{"destroy", "dispose", "teardown", "finalize"},
	{"free", "release", "deallocate", "dealloc"},
	{"copy", "clone", "duplicate"},
	{"update", "modify", "change", "mutate", "alter", "edit"},
	{"replace", "substitute"},
	{"clear", "reset", "wipe", "purge"},
	{"refresh", "reload", "renew"},
	{"revert", "rollback", "undo"},

	// Starting and stopping.
	{"start", "begin", "launch", "boot"},
	{"stop", "halt", "shutdown", "terminate", "quit", "kill"},
	{"exit", "quit"},
	{"restart", "reboot", "relaunch"},
	{"pause", "suspend"},
	{"resume", "unpause"},
	{"cancel", "abort", "interrupt"},
	{"finish", "complete", "done"},
	{"setup", "initialize", "prepare", "bootstrap"},
	{"spawn", "fork"},
	{"close", "disconnect"},
	{"connect", "dial"},
	{"wait", "await"},

	// Reading, finding, storing.
	{"fetch", "get", "retrieve", "load", "obtain"},
	{"find", "search", "lookup", "locate", "seek"},
	{"save", "store", "persist"},
	{"set", "assign", "put"},
	{"add", "append", "insert", "push"},
	{"push", "enqueue"},
	{"pop", "dequeue"},
	{"contain", "include"},
	{"import", "require", "include"},
	{"export", "expose"},

	// Sending and events.
	{"send", "emit", "publish", "dispatch", "broadcast"},
	{"trigger", "fire", "emit", "notify"},
	{"subscribe", "listen", "observe", "watch"},
	{"unsubscribe", "unlisten"},
	{"callback", "handler", "listener", "hook"},
	{"event", "notification"},
	{"register", "enroll", "signup"},
	{"unregister", "deregister"},
	{"redirect", "forward"},
	{"endpoint", "route"},
	{"middleware", "interceptor"},

	// Checking and comparing.
	{"check", "validate", "verify", "ensure"},
	{"equal", "equality", "equals", "eq", "equivalent", "identical"},
	{"compare", "comparison", "comparator", "cmp"},
	{"match", "matcher"},
	{"regex", "regexp", "pattern"},
	{"invalid", "illegal", "malformed", "bad"},
	{"missing", "absent"},
	{"unique", "distinct", "dedupe", "deduplicate"},

	// Converting data.
	{"parse", "decode", "deserialize", "unmarshal", "unpack"},
	{"serialize", "encode", "marshal", "dump", "pack", "stringify"},
	{"convert", "transform", "translate", "cast", "coerce"},
	{"extract", "unpack", "unwrap"},
	{"wrap", "decorate"},
	{"merge", "combine", "join", "concat", "concatenate"},
	{"split", "divide", "partition", "separate"},
	{"trim", "strip"},
	{"sanitize", "scrub"},
	{"normalize", "canonicalize"},
	{"escape", "quote"},
	{"compress", "deflate", "zip", "gzip"},
	{"decompress", "inflate", "unzip", "gunzip"},
	{"encrypt", "encipher", "cipher"},
	{"hash", "digest", "checksum"},
	{"lowercase", "lower", "downcase"},
	{"uppercase", "upper", "upcase"},

	// Collections and walking them.
	{"iterate", "traverse", "walk", "visit"},
	{"list", "enumerate"},
	{"sort", "order"},
	{"filter", "select"},
	{"reduce", "fold", "accumulate", "aggregate"},
	{"sum", "total"},
	{"average", "mean", "avg"},
	{"size", "length", "count"},
	{"extend", "expand", "grow"},
	{"array", "list", "slice", "vector", "sequence"},
	{"map", "dictionary", "dict", "hashmap", "hashtable"},
	{"item", "element", "entry", "member"},
	{"field", "property", "attribute", "prop"},
	{"parent", "ancestor"},
	{"child", "children", "descendant"},
	{"node", "vertex"},
	{"edge", "arc"},
	{"position", "pos", "offset"},
	{"column", "col"},
	{"increment", "increase", "incr"},
	{"decrement", "decrease", "decr"},
	{"limit", "bound", "cap", "quota"},
	{"throttle", "ratelimit"},

	// Kinds of code and values.
	{"method", "function", "procedure", "routine"},
	{"type", "kind"},
	{"interface", "protocol", "trait"},
	{"module", "package"},
	{"plugin", "extension", "addon"},
	{"inherit", "derive", "subclass"},
	{"helper", "utility"},
	{"mock", "stub", "fake", "dummy"},
	{"example", "sample", "demo"},
	{"identifier", "id", "ident"},
	{"null", "nil", "none", "undefined"},
	{"empty", "blank"},
	{"boolean", "bool"},
	{"integer", "int"},
	{"character", "char", "rune"},
	{"constant", "const"},
	{"immutable", "readonly", "frozen"},
	{"optional", "nullable"},
	{"required", "mandatory"},
	{"default", "fallback"},
	{"deprecated", "obsolete", "legacy"},
	{"version", "revision"},
	{"body", "payload", "content"},
	{"url", "uri", "href"},
	{"folder", "directory"},
	{"settings", "configuration", "options", "preferences"},

	// Failure and success.
	{"error", "failure", "exception", "fault"},
	{"throw", "raise"},
	{"success", "succeed", "ok"},
	{"ignore", "skip", "omit", "exclude"},

	// Time, concurrency, caching.
	{"timeout", "deadline"},
	{"expire", "expiry", "expiration", "ttl"},
	{"schedule", "enqueue", "queue"},
	{"task", "job"},
	{"coroutine", "goroutine", "fiber"},
	{"concurrent", "parallel"},
	{"promise", "future", "deferred"},
	{"cache", "memoize", "memo"},
	{"random", "rand", "rng"},
	{"metric", "measurement", "telemetry"},

	// Access.
	{"user", "account"},
	{"login", "signin", "logon"},
	{"logout", "signout"},
	{"password", "passphrase"},
	{"permission", "privilege", "grant"},
	{"allow", "permit", "whitelist", "allowlist"},
	{"deny", "reject", "forbid", "refuse"},
	{"enable", "activate"},
	{"disable", "deactivate"},
	{"toggle", "flip"},

	// Presenting.
	{"display", "show", "render"},
	{"render", "draw", "paint"},
	{"click", "tap", "press"},
	{"email", "mail"},

	// British and American spellings.
	{"color", "colour"},
	{"behavior", "behaviour"},
	{"normalize", "normalise"},
	{"serialize", "serialise"},
	{"initialize", "initialise"},
	{"analyze", "analyse"},
	{"optimize", "optimise"},
	{"authorize", "authorise"},
	{"synchronize", "synchronise"},
}

// synonymExpansions maps the stem of a word to the stems of its synonyms
// that are not already its abbreviations or long forms.
var synonymExpansions = func() map[string][]string {
	m := groupExpansions(synonyms)
	for s, list := range m {
		kept := list[:0]
		for _, o := range list {
			if !contains(expansions[s], o) {
				kept = append(kept, o)
			}
		}
		m[s] = kept
	}
	return m
}()
