package commands

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	wait := mustLookup("wait")
	args, flags, err := Parse(wait, []string{"--networkidle", "500"})
	if err != nil || !reflect.DeepEqual(args, []string{"500"}) || len(flags) != 1 {
		t.Fatalf("Parse = %v %v %v", args, flags, err)
	}
	if _, _, err := Parse(wait, []string{"--bogus"}); err == nil || !strings.Contains(err.Error(), "Unknown flag") {
		t.Fatalf("unknown flag: %v", err)
	}
	if _, _, err := Parse(mustLookup("goto"), nil); err == nil || !strings.Contains(err.Error(), "Usage: browse goto <url>") {
		t.Fatalf("missing arg: %v", err)
	}
	// Free-text commands keep dash words as text; "--" ends flags everywhere.
	if args, _, err := Parse(mustLookup("js"), []string{"-x", "--y"}); err != nil || len(args) != 2 {
		t.Fatalf("js dash args: %v %v", args, err)
	}
	if args, _, err := Parse(mustLookup("text"), []string{"--", "-weird"}); err != nil || args[0] != "-weird" {
		t.Fatalf("after --: %v %v", args, err)
	}
}

func TestRegistryIsConsistent(t *testing.T) {
	help := Help()
	ref := Reference()
	for _, c := range All() {
		if c.Run == nil && !c.Local {
			t.Errorf("%s has no handler and is not local", c.Name)
		}
		if c.Summary == "" || c.Category == "" {
			t.Errorf("%s lacks a summary or category", c.Name)
		}
		if !strings.Contains(help, c.Usage()) || !strings.Contains(ref, "`"+strings.ReplaceAll(c.Usage(), "|", "\\|")+"`") {
			t.Errorf("%s is missing from help or the reference", c.Name)
		}
		if c.MaxArgs >= 0 && c.MaxArgs < c.MinArgs {
			t.Errorf("%s: MaxArgs < MinArgs", c.Name)
		}
	}
	if s := Suggest("gto"); len(s) == 0 || s[0] != "goto" {
		t.Errorf("Suggest(gto) = %v", s)
	}
	if s := Suggest("zzzzzz"); len(s) != 0 {
		t.Errorf("Suggest(zzzzzz) = %v", s)
	}
}

func TestAbsPathArgs(t *testing.T) {
	got := AbsPathArgs(mustLookup("eval"), []string{"s.js"}, "/w")
	if got[0] != "/w/s.js" {
		t.Fatalf("AbsPathArgs = %v", got)
	}
	if got := AbsPathArgs(mustLookup("js"), []string{"s.js"}, "/w"); got[0] != "s.js" {
		t.Fatalf("js arg rewritten: %v", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("wait", "--networkidle\x00500")
	f.Add("goto", "https://x")
	f.Add("newtab", "--json=1")
	f.Add("js", "-1\x00--\x00x")
	f.Fuzz(func(t *testing.T, name, joined string) {
		cmd, ok := Lookup(name)
		if !ok {
			cmd = mustLookup("wait")
		}
		raw := strings.Split(joined, "\x00")
		args, flags, err := Parse(cmd, raw)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("non-command error %T", err)
			}
			return
		}
		if len(args) < cmd.MinArgs || (cmd.MaxArgs >= 0 && len(args) > cmd.MaxArgs) {
			t.Fatalf("accepted %d args for %s", len(args), cmd.Name)
		}
		for name := range flags {
			if cmd.flag(name) == nil {
				t.Fatalf("accepted undeclared flag %q", name)
			}
		}
	})
}

func TestWrapAwait(t *testing.T) {
	cases := map[string]string{
		"document.title":                "document.title",
		"// await here\n1":              "// await here\n1",
		"'await'":                       "'await'",
		"await f()":                     "(async () => (await f()))()",
		"const x = await f(); return x": "(async () => {\nconst x = await f(); return x\n})()",
		"awaitable + 1":                 "awaitable + 1",
	}
	for in, want := range cases {
		if got := WrapAwait(in); got != want {
			t.Errorf("WrapAwait(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzWrapAwait(f *testing.F) {
	for _, s := range []string{"await x", "`${await y}`", "/* await */", "'\\'", "a // b\nawait c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		out := WrapAwait(code)
		// The expression form trims surrounding space and trailing semicolons.
		if !strings.Contains(out, strings.TrimRight(strings.TrimSpace(code), ";")) {
			t.Fatalf("WrapAwait dropped code: %q -> %q", code, out)
		}
	})
}

func TestDocsMatchRegistry(t *testing.T) {
	data, err := os.ReadFile("../../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != Reference() {
		t.Fatal("docs/commands.md is stale: run 'make docs'")
	}
}

func FuzzSnapshotFlags(f *testing.F) {
	for _, s := range []string{"-i", "-i\x00-c\x00-d\x003", "-s\x00#main", "-a\x00-o\x00/tmp/x.png", "-d\x00-1", "-D\x00-C", "-x"} {
		f.Add(s)
	}
	cmd := mustLookup("snapshot")
	f.Fuzz(func(t *testing.T, joined string) {
		args, flags, err := Parse(cmd, strings.Split(joined, "\x00"))
		if err != nil {
			return
		}
		if len(args) != 0 {
			t.Fatalf("snapshot accepted positional args %q", args)
		}
		opts, err := ParseSnapshotFlags(flags)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("non-command error %T", err)
			}
			return
		}
		if opts.Render.MaxDepth < 0 || opts.Render.MaxDepth > 1000 || (opts.Output != "" && !opts.Annotate) {
			t.Fatalf("accepted bad options %+v", opts)
		}
	})
}

func TestSnapshotFlags(t *testing.T) {
	cmd := mustLookup("snapshot")
	_, flags, err := Parse(cmd, []string{"-i", "-c", "-d", "3", "-s", "#main", "-D", "-C"})
	if err != nil {
		t.Fatal(err)
	}
	o, err := ParseSnapshotFlags(flags)
	if err != nil || !o.Render.Interactive || !o.Render.Compact || o.Render.MaxDepth != 3 || o.Scope != "#main" || !o.Diff || !o.Cursor {
		t.Fatalf("options %+v, %v", o, err)
	}
	if _, _, err := Parse(cmd, []string{"-q"}); err == nil {
		t.Fatal("unknown flag accepted")
	}
}
