package research

import "testing"

func TestParamType(t *testing.T) {
	tests := []struct {
		sig, name, family, want string
	}{
		{"func (c *Context) Render(code int, r render.Render)", "r", "go", "render.Render"},
		{"func (c *Context) Render(code int, r render.Render)", "c", "go", "Context"},
		{"func Copy(dst, src *Buffer) error", "dst", "go", "Buffer"},
		{"func Map[T any](xs []T, f func(T) T) []T", "xs", "go", "T"},
		{"func Handle(w http.ResponseWriter, r *http.Request)", "r", "go", "http.Request"},
		{"func Nothing()", "x", "go", ""},
		{"public void route(final Router router, String path)", "router", "java", "Router"},
		{"void process(List<Item> items)", "items", "java", "List"},
		{"function handle(req: Request, res: Response): void", "res", "ecmascript", "Response"},
		{"def save(self, repo: Repository) -> None", "repo", "python", "Repository"},
		{"fn apply(&self, store: &mut Store) -> bool", "store", "rust", "Store"},
		{"func route(_ path: String, router: Router)", "router", "swift", "Router"},
		{"int handle(const struct conn *c, size_t n)", "c", "c", "conn"},
	}
	for _, tt := range tests {
		if got := paramType(tt.sig, tt.name, tt.family); got != tt.want {
			t.Errorf("paramType(%q, %q) = %q, want %q", tt.sig, tt.name, got, tt.want)
		}
	}
}

func TestParseQuery(t *testing.T) {
	tests := []struct {
		q, intent, subject string
	}{
		{"what calls authenticate()", IntentCallers, "authenticate"},
		{"Who calls `Router.Handle`?", IntentCallers, "Router.Handle"},
		{"who uses the Config struct", IntentCallers, "Config"},
		{"callers of auth::check", IntentCallers, "auth::check"},
		{"where is parse_args called", IntentCallers, "parse_args"},
		{"what does HandleLogin call", IntentCallees, "HandleLogin"},
		{"callees of main", IntentCallees, "main"},
		{"all implementations of Authenticatable", IntentImplementations, "Authenticatable"},
		{"types conforming to Authenticatable", IntentImplementations, "Authenticatable"},
		{"which classes extend BaseModel", IntentImplementations, "BaseModel"},
		{"what implements io.Reader?", IntentImplementations, "io.Reader"},
		{"subclasses of Exception", IntentImplementations, "Exception"},
		{"where is Config used", IntentReferences, "Config"},
		{"references to DEFAULT_TIMEOUT", IntentReferences, "DEFAULT_TIMEOUT"},
		{"what does package web depend on", IntentDependencies, "web"},
		{"dependencies of internal/app", IntentDependencies, "internal/app"},
		{"what depends on the auth module", IntentDependents, "auth"},
		{"who imports render", IntentDependents, "render"},
		{"how does authentication work", IntentOverview, ""},
		{"what calls the login code", IntentOverview, ""},
		{"where are sessions stored", IntentOverview, ""},
	}
	for _, tt := range tests {
		got := parseQuery(tt.q)
		if got.intent != tt.intent || got.subject != tt.subject {
			t.Errorf("parseQuery(%q) = %s %q, want %s %q", tt.q, got.intent, got.subject, tt.intent, tt.subject)
		}
	}
}
