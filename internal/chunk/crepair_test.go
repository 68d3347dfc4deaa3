package chunk

import (
	"slices"
	"strings"
	"testing"
)

// TestCRepairBlanksMacros checks, line by line, which upper-case names
// cRepair takes for macros (blanked, with their arguments) and which it
// leaves: a name the grammar reads as code must stay.
func TestCRepairBlanksMacros(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want string // src with the macros blanked; "" means unchanged
	}{
		{"attribute before a declaration", "FMT_API void report(int code);\n", "        void report(int code);\n"},
		{"after a specifier", "static FMT_CONSTEXPR auto size() -> int { return 1; }\n", "static               auto size() -> int { return 1; }\n"},
		{"before a type and a name", "ABSL_MUST_USE_RESULT Status Load(const char* path);\n", "                     Status Load(const char* path);\n"},
		{"between type and name", "void SPDLOG_INLINE logger::flush() {}\n", "void               logger::flush() {}\n"},
		{"between class and name", "class SPDLOG_API logger {\n", "class            logger {\n"},
		{"two between class and name", "class ABSL_LOCKABLE ABSL_ATTRIBUTE_WARN_UNUSED Mutex {\n",
			"class                                          Mutex {\n"},
		{"macro alone after class", "struct ABSL_EXPORT {\n", "struct ABSL_EXPORT {\n"},
		{"alone on a line", "namespace absl {\nABSL_NAMESPACE_BEGIN\n", "namespace absl {\n                    \n"},
		{"block macro", "void f() {\n  SPDLOG_TRY {\n    g();\n  }\n  SPDLOG_LOGGER_CATCH(loc)\n}\n",
			"void f() {\n             {\n    g();\n  }\n                          \n}\n"},
		{"between if and its condition", "  if FMT_CONSTEXPR20 (n > 0) {\n", "  if                 (n > 0) {\n"},
		{"trailing attribute", "int VLogLevel() ABSL_LOCKS_EXCLUDED(mutex) {\n", "int VLogLevel()                            {\n"},
		{"trailing attribute of a field", "  int hits_ ABSL_GUARDED_BY(mu_);\n", "  int hits_ " + spaces("ABSL_GUARDED_BY(mu_)") + ";\n"},
		{"attributes over lines", "std::vector<int>* infos ABSL_GUARDED_BY(mu)\n    ABSL_PT_GUARDED_BY(mu){nullptr};\n",
			"std::vector<int>* infos " + spaces("ABSL_GUARDED_BY(mu)") + "\n    " + spaces("ABSL_PT_GUARDED_BY(mu)") + "{nullptr};\n"},
		{"template parameter", "template <typename T,\n          FMT_ENABLE_IF(std::is_integral<T>::value &&\n                        sizeof(T) > 1)>\nvoid f(T);\n",
			"template <typename T,\n          int" + spaces("FMT_ENABLE_IF(std::is_integral<T>::value &&"[3:]) + "\n" +
				spaces("                        sizeof(T) > 1)") + ">\nvoid f(T);\n"},
		// Left alone.
		{"a test named by a macro", "TEST(Parser, Empty) {\n  EXPECT_TRUE(parse(\"\"));\n}\n", ""},
		{"a call continued on the next line", "  EXPECT_CALL(mock, Call(gen, 1))\n      .WillOnce(Return(2));\n", ""},
		{"a statement under an if", "  if (ok)\n    ASSERT_EQ(a, b)\n  next();\n", ""},
		{"an attribute on the next line", "void Update() ABSL_UNLOCK_FUNCTION(mu)\n    ABSL_LOCKS_EXCLUDED(other) {\n",
			"void Update() " + spaces("ABSL_UNLOCK_FUNCTION(mu)") + "\n    " + spaces("ABSL_LOCKS_EXCLUDED(other)") + " {\n"},
		{"a call with a semicolon", "  CHECK(Parse(x));\n", ""},
		{"a type then a variable", "HANDLE file;\nDWORD size, flags;\n", ""},
		{"the last enumerator", "enum color {\n  RED,\n  GREEN\n};\n", ""},
		{"a returned value", "  return EOF;\n", ""},
		{"a preprocessor line", "#define FMT_API __attribute__((visibility(\"default\")))\n#if FMT_USE_INT128\n", ""},
		{"a macro's body", "#define CHECK(x) \\\n  FMT_ASSERT(x, \"\") \\\n  (void)0\n", ""},
		{"short capitals", "T value;\nID id;\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := c.want
			if want == "" {
				want = c.src
			}
			got := string(cRepair([]byte(c.src)))
			if len(got) != len(c.src) {
				t.Fatalf("length changed: %d → %d", len(c.src), len(got))
			}
			if got != want {
				t.Errorf("cRepair(%q)\n got %q\nwant %q", c.src, got, want)
			}
		})
	}
}

func spaces(s string) string { return strings.Repeat(" ", len(s)) }

// TestCMacrosKeepDefinitions checks that code full of macros, as C and C++
// libraries write it, keeps its definitions: without the repair, the
// grammar reads the macros as errors and folds what follows into
// nameless blocks.
func TestCMacrosKeepDefinitions(t *testing.T) {
	cases := []struct {
		language string
		src      string
		defined  []string
	}{
		{"cpp", `#include "spdlog/logger.h"

namespace spdlog {

SPDLOG_INLINE void logger::set_level(level::level_enum log_level) {
    level_.store(log_level);
}

SPDLOG_INLINE void logger::sink_it_(const details::log_msg &msg) {
    for (auto &sink : sinks_) {
        if (sink->should_log(msg.level)) {
            SPDLOG_TRY { sink->log(msg); }
            SPDLOG_LOGGER_CATCH(msg.source)
        }
    }
    if (should_flush_(msg)) {
        flush_();
    }
}

SPDLOG_INLINE bool logger::should_flush_(const details::log_msg &msg) {
    auto flush_level = flush_level_.load(std::memory_order_relaxed);
    return (msg.level >= flush_level) && (msg.level != level::off);
}

}  // namespace spdlog
`, []string{"set_level", "sink_it_", "should_flush_"}},
		{"cpp", `namespace absl {
ABSL_NAMESPACE_BEGIN

class ABSL_MUST_USE_RESULT Status final {
 public:
  ABSL_ATTRIBUTE_REINITIALIZES void Clear() ABSL_LOCKS_EXCLUDED(mu_);
  int code() const;
 private:
  int code_ ABSL_GUARDED_BY(mu_);
};

ABSL_MUST_USE_RESULT bool IsOk(const Status& s);

ABSL_NAMESPACE_END
}  // namespace absl
`, []string{"Status", "Clear", "code", "IsOk"}},
		{"c", `#include "uv.h"

UV_EXTERN int uv_loop_init(uv_loop_t* loop);
UV_EXTERN int uv_run(uv_loop_t* loop, uv_run_mode mode);

UV_EXTERN int uv_loop_close(uv_loop_t* loop) {
  return 0;
}
`, []string{"uv_loop_init", "uv_run", "uv_loop_close"}},
	}
	for _, c := range cases {
		chunks, _ := Analyze("x", c.language, []byte(c.src))
		checkCoverage(t, []byte(c.src), chunks)
		var defined []string
		for _, ch := range chunks {
			defined = append(defined, ch.Symbols...)
		}
		for _, name := range c.defined {
			if !slices.Contains(defined, name) {
				t.Errorf("%s: %s is not defined by any chunk; chunks define %v", c.language, name, defined)
			}
		}
		// The text is the file's, not the repair's.
		for _, ch := range chunks {
			if !strings.Contains(c.src, ch.Content) {
				t.Errorf("chunk %d-%d holds text the file does not: %q", ch.StartLine, ch.EndLine, ch.Content)
			}
		}
	}
}

// TestCNestedTypes checks that a class, struct or enum defined inside a
// class, or defined while declaring a variable, is named.
func TestCNestedTypes(t *testing.T) {
	src := "class RE2 {\n public:\n  class Options {\n   public:\n    Options() {}\n    int max_mem;\n  };\n" +
		"  struct Arg { int a; };\n  enum Anchor { UNANCHORED, ANCHOR_START };\n};\n\nstruct point { int x, y; } origin, *cursor;\n"
	chunks := Split("re2.cc", "cpp", []byte(src))
	var defined []string
	for _, ch := range chunks {
		defined = append(defined, ch.Symbols...)
	}
	for _, name := range []string{"RE2", "Options", "Arg", "Anchor", "point", "origin", "cursor"} {
		if !slices.Contains(defined, name) {
			t.Errorf("%s is not defined by any chunk; chunks define %v", name, defined)
		}
	}
}

// FuzzCRepair checks that the rewrite keeps every offset: the same length,
// the line breaks where they were, and nothing but blanks (and the "int"
// of a template parameter) written.
func FuzzCRepair(f *testing.F) {
	for _, name := range fixtureFiles(f) {
		if strings.HasSuffix(name, ".cc") || strings.HasSuffix(name, ".c") || strings.HasSuffix(name, ".hpp") {
			f.Add(readFixture(f, name))
		}
	}
	f.Add([]byte("template <typename T, FMT_ENABLE_IF(x)>\nFMT_API void f();\nABSL_NAMESPACE_BEGIN\n"))
	f.Add([]byte("template<A,B(\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fixed := cRepair(src)
		if len(fixed) != len(src) {
			t.Fatalf("length %d → %d", len(src), len(fixed))
		}
		for i := range src {
			if fixed[i] == src[i] {
				continue
			}
			if src[i] == '\n' || fixed[i] != ' ' && !(i+3 <= len(fixed) && string(fixed[i:i+3]) == "int") &&
				!(i >= 1 && string(fixed[i-1:i+2]) == "int") && !(i >= 2 && string(fixed[i-2:i+1]) == "int") {
				t.Fatalf("byte %d changed from %q to %q", i, src[i], fixed[i])
			}
		}
	})
}
