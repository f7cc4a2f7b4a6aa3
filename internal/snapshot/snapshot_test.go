package snapshot

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The trees in testdata/*.json were recorded from real Chromium (see
// internal/browser's TestRecordAXTrees); the goldens are their renderings.
func TestGolden(t *testing.T) {
	variants := map[string]Options{
		"full":   {},
		"i":      {Interactive: true},
		"c":      {Compact: true},
		"d2":     {MaxDepth: 2},
		"norefs": {NoRefs: true},
	}
	trees, _ := filepath.Glob("testdata/*.json")
	if len(trees) == 0 {
		t.Fatal("no recorded trees")
	}
	for _, path := range trees {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var f Frame
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(path, ".json")
		for name, opts := range variants {
			res := Render(&f, opts, nil)
			golden := base + "." + name + ".golden"
			if *update {
				os.WriteFile(golden, []byte(res.Text+"\n"), 0o644)
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if res.Text+"\n" != string(want) {
				t.Errorf("%s: rendering changed:\n--- got\n%s\n--- want\n%s", golden, res.Text, want)
			}
			checkRefs(t, golden, res, opts)
		}
	}
}

// checkRefs: every printed ref is in Refs, in order, and vice versa.
func checkRefs(t *testing.T, name string, res Result, opts Options) {
	printed := regexp.MustCompile(`@(e\d+) `).FindAllStringSubmatch(res.Text, -1)
	if opts.NoRefs {
		if len(printed) != 0 || len(res.Refs) != 0 {
			t.Errorf("%s: refs printed without refs", name)
		}
		return
	}
	if len(printed) != len(res.Refs) {
		t.Fatalf("%s: %d refs printed, %d returned", name, len(printed), len(res.Refs))
	}
	for i, p := range printed {
		if res.Refs[i].ID != p[1] || res.Refs[i].Key == 0 || res.Refs[i].Role == "" {
			t.Errorf("%s: ref %d is %+v, printed %s", name, i, res.Refs[i], p[1])
		}
	}
}

func TestFramesRenderInline(t *testing.T) {
	data, _ := os.ReadFile("testdata/frames.json")
	var f Frame
	json.Unmarshal(data, &f)
	res := Render(&f, Options{}, nil)
	lines := strings.Split(res.Text, "\n")
	pays := 0
	for i, l := range lines {
		if strings.Contains(l, `[button] "Pay"`) {
			pays++
			// Some earlier, less indented line is the iframe holding it.
			ok := false
			for j := i - 1; j >= 0; j-- {
				if strings.Contains(lines[j], "[iframe]") && indentOf(lines[j]) < indentOf(l) {
					ok = true
					break
				}
			}
			if !ok {
				t.Fatalf("Pay button not under an iframe:\n%s", res.Text)
			}
		}
	}
	if pays != 2 {
		t.Fatalf("%d Pay buttons, want one per frame:\n%s", pays, res.Text)
	}
	// Refs in different frames are distinct even where backend ids repeat.
	seen := map[string]bool{}
	for _, r := range res.Refs {
		if seen[r.ID] {
			t.Fatalf("ref %s given twice", r.ID)
		}
		seen[r.ID] = true
	}
}

func TestStableIDs(t *testing.T) {
	data, _ := os.ReadFile("testdata/interact.json")
	var f Frame
	json.Unmarshal(data, &f)
	ids := &IDs{}
	a := Render(&f, Options{Interactive: true}, ids)
	b := Render(&f, Options{}, ids)
	byBackend := map[int64]string{}
	for _, r := range a.Refs {
		byBackend[r.Key] = r.ID
	}
	for _, r := range b.Refs {
		if id, ok := byBackend[r.Key]; ok && id != r.ID {
			t.Fatalf("element %d was %s, now %s", r.Key, id, r.ID)
		}
	}
}

func TestScope(t *testing.T) {
	data, _ := os.ReadFile("testdata/shadow.json")
	var f Frame
	json.Unmarshal(data, &f)
	if res := Render(&f, Options{ScopeBackendID: -42}, nil); res.Found || res.Text != "" {
		t.Fatal("a missing scope rendered something")
	}
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

func BenchmarkRender(b *testing.B) {
	data, _ := os.ReadFile("testdata/interact.json")
	var f Frame
	json.Unmarshal(data, &f)
	for i := 0; i < b.N; i++ {
		Render(&f, Options{Interactive: true}, nil)
	}
}

func TestInteractiveFoldsIdenticalLinks(t *testing.T) {
	f := &Frame{ID: "F", URL: "https://example.com/", Nodes: []Node{
		{ID: "1", Role: "RootWebArea", Children: []string{"2", "3", "4", "5", "6", "7", "8"}},
		{ID: "2", Role: "link", Name: "IOBase", URL: "https://example.com/io#IOBase", Key: 2},
		{ID: "3", Role: "link", Name: "IOBase", URL: "https://example.com/io#IOBase", Key: 3},
		{ID: "4", Role: "link", Name: "IOBase", URL: "https://example.com/other", Key: 4},
		{ID: "5", Role: "button", Name: "Save", Key: 5},
		{ID: "6", Role: "button", Name: "Save", Key: 6},
		{ID: "7", Role: "link", Name: "IOBase", URL: "https://example.com/io#IOBase", Key: 7},
		{ID: "8", Role: "link", Name: "Run", URL: "javascript:run()", Key: 8},
	}}
	f.Nodes = append(f.Nodes, Node{ID: "9", Role: "link", Name: "Run", URL: "javascript:run()", Key: 9})
	f.Nodes[0].Children = append(f.Nodes[0].Children, "9")
	res := Render(f, Options{Interactive: true}, nil)
	want := strings.Join([]string{
		`@e1 [link] "IOBase" (+2 identical links)`,
		`@e2 [link] "IOBase"`,
		`@e3 [button] "Save"`,
		`@e4 [button] "Save"`,
		`@e5 [link] "Run"`,
		`@e6 [link] "Run"`,
	}, "\n")
	if res.Text != want {
		t.Fatalf("got:\n%s\nwant:\n%s", res.Text, want)
	}
	if len(res.Refs) != 6 || res.Refs[0].Key != 2 {
		t.Fatalf("refs: %+v", res.Refs)
	}
	// The full tree keeps every link.
	if full := Render(f, Options{}, nil); strings.Count(full.Text, `"IOBase"`) != 4 {
		t.Fatalf("full snapshot folded links:\n%s", full.Text)
	}
}
