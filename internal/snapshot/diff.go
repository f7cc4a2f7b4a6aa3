package snapshot

import (
	"fmt"
	"strings"
)

// Diff returns a unified diff (3 lines of context) from old to new, or "" when
// they are equal. Snapshots change locally, so the common head and tail are
// trimmed first and a longest-common-subsequence runs on what is left; a
// middle too large for that (over maxCells line pairs) is shown as replaced.
//
// It is ours rather than a library's because the one we used compiled a
// regexp at package init, which every CLI call then paid for.
func Diff(oldLabel, newLabel, old, new string) string {
	if old == new {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	hs := hunks(diffLines(a, b), 3)
	if len(hs) == 0 {
		return "" // the same lines (the texts differed only in a final newline)
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldLabel, newLabel)
	for _, h := range hs {
		writeHunk(&out, h, a, b)
	}
	return out.String()
}

const maxCells = 4 << 20

type opKind byte

const (
	same opKind = ' '
	del  opKind = '-'
	ins  opKind = '+'
)

// op is one line of the edit script: an index into a (same, del) or b (ins);
// same ops carry both.
type op struct {
	kind opKind
	ai   int
	bi   int
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func diffLines(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{same, i, i})
	}
	ops = append(ops, middle(a[pre:len(a)-suf], b[pre:len(b)-suf], pre)...)
	for i := 0; i < suf; i++ {
		ops = append(ops, op{same, len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

// middle diffs the changed region by LCS; off is its offset in both inputs
// (the trimmed heads are equally long).
func middle(a, b []string, off int) []op {
	n, m := len(a), len(b)
	var ops []op
	if n*m > maxCells || n == 0 || m == 0 {
		for i := range a {
			ops = append(ops, op{del, off + i, 0})
		}
		for j := range b {
			ops = append(ops, op{ins, 0, off + j})
		}
		return ops
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:], in one flat slice.
	lcs := make([]int32, (n+1)*(m+1))
	at := func(i, j int) *int32 { return &lcs[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				*at(i, j) = *at(i+1, j+1) + 1
			} else {
				*at(i, j) = max(*at(i+1, j), *at(i, j+1))
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			ops = append(ops, op{same, off + i, off + j})
			i, j = i+1, j+1
		case *at(i+1, j) >= *at(i, j+1):
			ops = append(ops, op{del, off + i, 0})
			i++
		default:
			ops = append(ops, op{ins, 0, off + j})
			j++
		}
	}
	for ; i < n; i++ {
		ops = append(ops, op{del, off + i, 0})
	}
	for ; j < m; j++ {
		ops = append(ops, op{ins, 0, off + j})
	}
	return ops
}

// hunks groups the script into runs of changes with up to ctx lines of
// unchanged context around them, merging runs whose context would overlap.
func hunks(ops []op, ctx int) [][]op {
	var out [][]op
	start, end := -1, -1
	for k, o := range ops {
		if o.kind == same {
			continue
		}
		lo, hi := max(k-ctx, 0), min(k+ctx+1, len(ops))
		if start >= 0 && lo <= end {
			end = hi
			continue
		}
		if start >= 0 {
			out = append(out, ops[start:end])
		}
		start, end = lo, hi
	}
	if start >= 0 {
		out = append(out, ops[start:end])
	}
	return out
}

func writeHunk(out *strings.Builder, h []op, a, b []string) {
	aStart, bStart, aLen, bLen := -1, -1, 0, 0
	for _, o := range h {
		if o.kind != ins {
			if aStart < 0 {
				aStart = o.ai
			}
			aLen++
		}
		if o.kind != del {
			if bStart < 0 {
				bStart = o.bi
			}
			bLen++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, o := range h {
		var line string
		if o.kind == ins {
			line = b[o.bi]
		} else {
			line = a[o.ai]
		}
		out.WriteByte(byte(o.kind))
		out.WriteString(line)
		out.WriteByte('\n')
	}
}

// hunkRange renders "start,len" with 1-based lines; an empty side is "0,0"
// style per the unified format (the line before, and length 0).
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", max(start, 0))
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
