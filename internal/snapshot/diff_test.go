package snapshot

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	if Diff("a", "b", "x\ny", "x\ny") != "" {
		t.Fatal("equal inputs diff")
	}
	old := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10"
	new := "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11"
	// Changes closer than twice the context share a hunk, as in GNU diff.
	want := `--- previous
+++ current
@@ -2,9 +2,10 @@
 2
 3
 4
-5
+five
 6
 7
 8
 9
 10
+11
`
	if got := Diff("previous", "current", old, new); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12"
	new = "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve"
	want = `--- previous
+++ current
@@ -1,4 +1,4 @@
-1
+one
 2
 3
 4
@@ -9,4 +9,4 @@
 9
 10
 11
-12
+twelve
`
	if got := Diff("previous", "current", old, new); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

// applying the script must give back new from old, for any inputs.
func apply(t *testing.T, diff, old string) string {
	a := splitLines(old)
	var out []string
	ai := 0
	for _, line := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "):
		case strings.HasPrefix(line, "@@"):
			var s int
			fmtSscan(line, &s)
			for ai < s-1 && ai < len(a) {
				out = append(out, a[ai])
				ai++
			}
		case line != "" && line[0] == ' ':
			out = append(out, a[ai])
			ai++
		case line != "" && line[0] == '-':
			ai++
		case line != "" && line[0] == '+':
			out = append(out, line[1:])
		}
	}
	out = append(out, a[ai:]...)
	return strings.Join(out, "\n")
}

func fmtSscan(h string, s *int) {
	// "@@ -S[,L] +…": the old side's start line.
	f := strings.Fields(h)[1][1:]
	f, _, _ = strings.Cut(f, ",")
	n := 0
	for _, c := range f {
		n = n*10 + int(c-'0')
	}
	*s = n
	if n == 0 {
		*s = 1
	}
}

func FuzzDiff(f *testing.F) {
	f.Add("a\nb\nc", "a\nc\nd")
	f.Add("", "x")
	f.Add("x\ny", "")
	f.Fuzz(func(t *testing.T, old, new string) {
		old = strings.TrimSuffix(old, "\n")
		new = strings.TrimSuffix(new, "\n")
		if strings.Contains(old, "\n\n") || strings.Contains(new, "\n\n") || strings.HasPrefix(old, "\n") || strings.HasPrefix(new, "\n") {
			return // keep lines non-empty so the toy patcher above stays simple
		}
		d := Diff("a", "b", old, new)
		if strings.Join(splitLines(old), "\n") == strings.Join(splitLines(new), "\n") {
			if d != "" {
				t.Fatal("diff of equal inputs")
			}
			return
		}
		if got := apply(t, d, old); got != strings.Join(splitLines(new), "\n") {
			t.Fatalf("applying the diff of %q → %q gives %q\n%s", old, new, got, d)
		}
	})
}
