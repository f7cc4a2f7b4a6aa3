package commands

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseChain(t *testing.T) {
	good := []struct {
		in   string
		want [][]string
	}{
		{`[["goto","https://x"],["text"]]`, [][]string{{"goto", "https://x"}, {"text"}}},
		{" \n[[\"js\", \"1 + 1\", \"\"]]\n", [][]string{{"js", "1 + 1", ""}}},
	}
	for _, g := range good {
		got, err := ParseChain(g.in)
		if err != nil || !reflect.DeepEqual(got, g.want) {
			t.Errorf("ParseChain(%q) = %q, %v", g.in, got, err)
		}
	}
	bad := map[string]string{
		``:                       "no input",
		`   `:                    "no input",
		`null`:                   "got null",
		`[]`:                     "no steps",
		`{"a":1}`:                "not a JSON array",
		`[["goto"]`:              "not a JSON array",
		`[["goto"]] [["text"]]`:  "trailing data",
		`[["goto"], "text"]`:     "step 2 is not an array of strings",
		`[["goto"], [1]]`:        "step 2 is not an array of strings",
		`[["goto"], null]`:       "step 2 is not an array of strings",
		`[[]]`:                   "step 1 is empty",
		`[["", "x"]]`:            "step 1 has an empty command name",
		`[["text"], [" "]]`:      "step 2 has an empty command name",
		`[["goto", {"u": "x"}]]`: "step 1 is not an array of strings",
	}
	for in, want := range bad {
		if _, err := ParseChain(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseChain(%q) = %v, want an error containing %q", in, err, want)
		}
	}
	long := "[" + strings.Repeat(`["url"],`, MaxChainSteps) + `["url"]]`
	if _, err := ParseChain(long); err == nil || !strings.Contains(err.Error(), "at most 100 steps") {
		t.Errorf("%d steps: %v", MaxChainSteps+1, err)
	}
}

func FuzzParseChain(f *testing.F) {
	for _, s := range []string{`[["goto","https://x"],["text"]]`, `[]`, `[[]]`, `[["a",""]]`, `null`, `[["x"]] 1`, `[[1]]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		steps, err := ParseChain(in)
		if err != nil {
			return
		}
		if len(steps) == 0 || len(steps) > MaxChainSteps {
			t.Fatalf("%d steps accepted", len(steps))
		}
		for _, s := range steps {
			if len(s) == 0 || strings.TrimSpace(s[0]) == "" {
				t.Fatalf("a step without a command accepted: %q", s)
			}
		}
		// What was accepted survives a round trip unchanged.
		out, _ := json.Marshal(steps)
		again, err := ParseChain(string(out))
		if err != nil || !reflect.DeepEqual(again, steps) {
			t.Fatalf("round trip of %q: %q, %v", steps, again, err)
		}
	})
}

func TestComposable(t *testing.T) {
	if _, err := composable("text", "Step 1"); err != nil {
		t.Fatal(err)
	}
	if cmd, err := composable("setcontent", "Step 1"); err != nil || cmd.Name != "load-html" {
		t.Fatalf("an alias: %v %v", cmd, err)
	}
	for name, want := range map[string]string{
		"clck":     `Step 2: Unknown command "clck".`,
		"chain":    "cannot run inside",
		"tab-each": "cannot run inside",
		"stop":     "cannot run inside",
		"restart":  "runs in the CLI",
		"help":     "runs in the CLI",
	} {
		_, err := composable(name, "Step 2")
		if err == nil || !strings.Contains(err.Msg, want) {
			t.Errorf("composable(%q) = %v, want %q", name, err, want)
		}
	}
	if _, err := composable("clck", "Step 2"); !strings.Contains(err.Hint, "'click'") {
		t.Errorf("no suggestion: %v", err)
	}
}

func TestDescribeStep(t *testing.T) {
	got := describeStep([]string{"fill", "#q", "two words", ""})
	if got != `fill #q "two words" ""` {
		t.Fatalf("describeStep = %s", got)
	}
	if got := describeStep([]string{"js", strings.Repeat("x", 100)}); len([]rune(got)) > 70 || !strings.HasSuffix(got, "…") {
		t.Fatalf("a long argument: %s", got)
	}
}

func TestFormatScout(t *testing.T) {
	s, ok := formatScout(`{"type":"observation","timestamp":"2025-06-01T10:00:00Z","page":{"url":"https://x/","title":"X"},"userMessage":"look here\nand here"}`)
	if !ok || s != "[2025-06-01T10:00:00Z] observation https://x/ \"X\"\n  look here\n  and here" {
		t.Fatalf("formatScout = %q %v", s, ok)
	}
	s, ok = formatScout(`{"ts":1748772000000,"message":"hi"}`)
	if !ok || !strings.HasPrefix(s, "[2025-06-01T10:00:00Z]") || !strings.HasSuffix(s, "\n  hi") {
		t.Fatalf("millisecond ts: %q", s)
	}
	if s, ok := formatScout(`{"other":1}`); !ok || !strings.Contains(s, `{"other":1}`) {
		t.Fatalf("unknown fields: %q", s)
	}
	for _, bad := range []string{`not json`, `[1]`, `{"message": 3}`, `{`} {
		if _, ok := formatScout(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestWatchHelpers(t *testing.T) {
	if got := since(400 * time.Millisecond); got != "0.4s" {
		t.Fatal(got)
	}
	if got := since(185 * time.Second); got != "3m05s" {
		t.Fatal(got)
	}
	if got := capLines("a\nb\nc\nd", 2); got != "a\nb\n… (2 more lines)" {
		t.Fatal(got)
	}
	if got := capLines("a\nb", 2); got != "a\nb" {
		t.Fatal(got)
	}
}

func TestChainReportRedactsSecrets(t *testing.T) {
	for _, step := range [][]string{
		{"header", "Authorization: Bearer sk-secret-value"},
		{"cookie", "sid=supersecretvalue"},
		{"storage", "set", "token", "supersecretvalue"},
	} {
		if got := describeStep(step); strings.Contains(got, "secret-value") || strings.Contains(got, "supersecretvalue") {
			t.Errorf("describeStep(%q) = %q shows the secret", step, got)
		}
	}
	if got := describeStep([]string{"goto", "https://example.com"}); got != "goto https://example.com" {
		t.Errorf("a plain step became %q", got)
	}
}
