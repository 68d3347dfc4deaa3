package assist

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// scripted is a Model that answers from a script, for exercising the
// fallback order; the real models (MCP sampling, the chat endpoint) are
// tested over their real protocols in their own tests.
type scripted struct {
	answer string
	err    error
	calls  int
}

func (s *scripted) Complete(context.Context, string, string, int) (string, error) {
	s.calls++
	return s.answer, s.err
}

func TestExpandSourceOrder(t *testing.T) {
	tests := []struct {
		name      string
		a         Assistant
		want      Source
		wantTerms []string
		wantNote  string
	}{
		{
			name:      "sampling first",
			a:         Assistant{Sampler: &scripted{answer: "- login\n- Session\n2. token"}, Chat: &scripted{answer: "x"}},
			want:      Sampling,
			wantTerms: []string{"login", "Session", "token"},
		},
		{
			name:      "chat when sampling fails",
			a:         Assistant{Sampler: &scripted{err: errors.New("refused")}, Chat: &scripted{answer: "login, credentials"}},
			want:      OpenAI,
			wantTerms: []string{"login", "credentials"},
			wantNote:  "sampling failed: refused",
		},
		{
			name:      "without a model the query is left as it is: empty terms, not nil",
			a:         Assistant{},
			want:      Builtin,
			wantTerms: []string{},
			wantNote:  NeedsModel,
		},
		{
			name:      "builtin when the model gives nothing usable",
			a:         Assistant{Chat: &scripted{answer: "auth"}},
			want:      Builtin,
			wantTerms: []string{},
			wantNote:  "openai gave no usable terms; " + NeedsModel,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.a.Expand(context.Background(), "auth")
			if err != nil {
				t.Fatal(err)
			}
			if got.Source != tt.want || !reflect.DeepEqual(got.Terms, tt.wantTerms) || got.Note != tt.wantNote {
				t.Errorf("Expand = %+v, want source %s terms %q note %q", got, tt.want, tt.wantTerms, tt.wantNote)
			}
			wantQuery := "auth"
			if len(tt.wantTerms) > 0 {
				wantQuery += " " + strings.Join(tt.wantTerms, " ")
			}
			if got.Query != wantQuery {
				t.Errorf("Query = %q, want %q", got.Query, wantQuery)
			}
		})
	}
}

func TestExpandCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := Assistant{Sampler: &scripted{err: context.Canceled}}
	if _, err := a.Expand(ctx, "q"); !errors.Is(err, context.Canceled) {
		t.Errorf("Expand on a cancelled context = %v, want context.Canceled", err)
	}
}

var hits = []Hit{
	{Path: "auth/login.go", StartLine: 10, EndLine: 30, Kind: "function", Symbols: []string{"Login"}, Signature: "func Login(user, pass string) (*Session, error)", DocComment: "Login checks the password. It returns a session."},
	{Path: "auth/session.go", StartLine: 5, EndLine: 12, Kind: "type", Symbols: []string{"Session"}},
}

func TestSynthesize(t *testing.T) {
	t.Run("builtin is extractive and deterministic", func(t *testing.T) {
		a := Assistant{}
		got, err := a.Synthesize(context.Background(), "login", hits)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := a.Synthesize(context.Background(), "login", hits)
		if !reflect.DeepEqual(got, again) {
			t.Errorf("builtin synthesis is not deterministic")
		}
		for _, want := range []string{"2 result(s)", "auth/login.go lines 10-30", "func Login", `"Login checks the password"`, "auth/session.go:5 (type Session)"} {
			if !strings.Contains(got.Summary, want) {
				t.Errorf("summary %q lacks %q", got.Summary, want)
			}
		}
		if got.Source != Builtin || len(got.FollowUps) < 3 || !strings.Contains(got.FollowUps[0], "auth/login.go lines 10-30") {
			t.Errorf("synthesis = %+v", got)
		}
	})
	t.Run("model answer parsed", func(t *testing.T) {
		a := Assistant{Sampler: &scripted{answer: "SUMMARY:\nLogin lives in auth/login.go:10.\nFOLLOW-UPS:\n- Who calls Login?\n- 2. How are sessions stored?"}}
		got, err := a.Synthesize(context.Background(), "login", hits)
		if err != nil {
			t.Fatal(err)
		}
		want := Synthesis{Source: Sampling, Summary: "Login lives in auth/login.go:10.", FollowUps: []string{"Who calls Login?", "How are sessions stored?"}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Synthesize = %+v, want %+v", got, want)
		}
	})
	t.Run("no hits: no model call", func(t *testing.T) {
		m := &scripted{answer: "SUMMARY: x"}
		a := Assistant{Sampler: m}
		got, _ := a.Synthesize(context.Background(), "nothing", nil)
		if m.calls != 0 || got.Source != Builtin || !strings.Contains(got.Summary, "No results") {
			t.Errorf("Synthesize without hits = %+v (model calls %d)", got, m.calls)
		}
	})
}

func TestChat(t *testing.T) {
	var gotAuth string
	var gotBody map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		gotAuth = r.Header.Get("Authorization")
		json.NewDecoder(r.Body).Decode(&gotBody)
		if gotBody["model"] == "broken" {
			http.Error(w, "model not loaded", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":"login\nsession"}}]}`))
	}))
	defer srv.Close()

	chat, err := ChatFromEnv(func(k string) string {
		return map[string]string{EnvChatBaseURL: srv.URL + "/v1/", EnvChatModel: "m1", EnvChatAPIKey: "k"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	text, err := chat.Complete(context.Background(), "sys", "prompt", 50)
	if err != nil || text != "login\nsession" {
		t.Fatalf("Complete = %q, %v", text, err)
	}
	if gotAuth != "Bearer k" || gotBody["model"] != "m1" || gotBody["max_tokens"] != float64(50) {
		t.Errorf("request: auth %q body %v", gotAuth, gotBody)
	}
	chat.Model = "broken"
	if _, err := chat.Complete(context.Background(), "s", "p", 5); err == nil || !strings.Contains(err.Error(), "model not loaded") {
		t.Errorf("error status: err = %v", err)
	}
	// Through the Assistant, a failing endpoint falls back to the builtin.
	got, err := (&Assistant{Chat: chat}).Expand(context.Background(), "q")
	if err != nil || got.Source != Builtin || !strings.Contains(got.Note, "openai failed") {
		t.Errorf("Expand with a failing endpoint = %+v, %v", got, err)
	}
}

func TestChatFromEnv(t *testing.T) {
	tests := []struct {
		env     map[string]string
		wantNil bool
		wantErr string
	}{
		{env: map[string]string{}, wantNil: true},
		{env: map[string]string{EnvChatBaseURL: "localhost:8080"}, wantErr: "not an http(s) URL"},
		{env: map[string]string{EnvChatBaseURL: "http://localhost:8080/v1"}, wantErr: EnvChatModel},
		{env: map[string]string{EnvChatBaseURL: "http://localhost:8080/v1", EnvChatModel: "m"}},
	}
	for _, tt := range tests {
		c, err := ChatFromEnv(func(k string) string { return tt.env[k] })
		switch {
		case tt.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ChatFromEnv(%v) error = %v, want %q", tt.env, err, tt.wantErr)
			}
		case tt.wantNil:
			if c != nil || err != nil {
				t.Errorf("ChatFromEnv(%v) = %v, %v; want nil", tt.env, c, err)
			}
		default:
			if c == nil || err != nil {
				t.Errorf("ChatFromEnv(%v) = %v, %v", tt.env, c, err)
			}
		}
	}
}
