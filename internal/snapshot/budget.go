package snapshot

import (
	"fmt"
	"net/url"
	"strings"
)

// DefaultMaxOutput is snapshot's output budget in bytes: about 10k tokens,
// enough for a long form or the top of an article, small enough to leave an
// agent's context for the work.
const DefaultMaxOutput = 40000

// Cut shortens text to at most max bytes, note line included, by dropping
// whole lines from the end: a line is an element, and half of one would be
// a ref without its name. note words the last line from the number of lines
// left out. It returns text unchanged (and 0) when it fits, and max <= 0
// means no limit. If not even the first line fits beside the note, the
// result is the note alone, however long.
func Cut(text string, max int, note func(omitted int) string) (string, int) {
	if max <= 0 || len(text) <= max {
		return text, 0
	}
	total := strings.Count(text, "\n") + 1
	// Keeping one more line never makes the note longer (fewer left out),
	// and every line costs at least its newline, so the size only grows
	// with the lines kept: take lines while the next one still fits.
	kept, size := 0, 0 // size: bytes of the kept lines, with the newlines between them
	rest := text
	for {
		line, after, more := strings.Cut(rest, "\n")
		next := size + len(line)
		if kept > 0 {
			next++
		}
		if next+1+len(note(total-kept-1)) > max {
			break
		}
		kept, size, rest = kept+1, next, after
		if !more {
			break
		}
	}
	if kept == 0 {
		return note(total), total
	}
	return text[:size] + "\n" + note(total-kept), total - kept
}

// CutNote is the last line of a snapshot cut to fit its budget.
func CutNote(max int) func(int) string {
	return func(omitted int) string {
		return fmt.Sprintf("(… %d more %s cut at the %d-byte output limit; narrow with -s <selector> or --viewport, or see all with --max-output 0)",
			omitted, plural(omitted, "element", "elements"), max)
	}
}

// DiffCutNote is the last line of a diff cut to fit its budget.
func DiffCutNote(max int) func(int) string {
	return func(omitted int) string {
		return fmt.Sprintf("(… %d more diff %s cut at the %d-byte output limit; see all with --max-output 0)",
			omitted, plural(omitted, "line", "lines"), max)
	}
}

// AwayNote is the last line of a --viewport snapshot: what it left out.
func AwayNote(away int) string {
	return fmt.Sprintf("(… %d more %s outside the viewport; scroll, or use -s <selector>)",
		away, plural(away, "element", "elements"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// PrintedRefs lists the refs (without "@") that head lines of text: a
// snapshot's lines, or a diff's (after its +, - or space).
func PrintedRefs(text string) map[string]bool {
	refs := make(map[string]bool)
	for line := range strings.SplitSeq(text, "\n") {
		if ref, ok := leadingRef(strings.TrimLeft(line, " +-")); ok {
			refs[ref] = true
		}
	}
	return refs
}

// leadingRef reads "@e12 " or "@c3 " at the start of line. (No regexp:
// the project compiles none at start-up.)
func leadingRef(line string) (string, bool) {
	if len(line) < 4 || line[0] != '@' || line[1] != 'e' && line[1] != 'c' {
		return "", false
	}
	i := 2
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i == 2 || i >= len(line) || line[i] != ' ' {
		return "", false
	}
	return line[1:i], true
}

// maxHref is how long a shortened link target may get.
const maxHref = 60

// ShortHref is a link's target as a snapshot shows it: the path (and query,
// fragment) when it stays on the document's site, host and path when it
// leaves it, anything else (mailto:, javascript:) as written; past maxHref
// characters the query goes first, then the middle of the path.
func ShortHref(href, base string) string {
	u, err := url.Parse(href)
	if err != nil || u.Opaque != "" || u.Host == "" {
		return trimMiddle(collapse(href), maxHref)
	}
	from, _ := url.Parse(base)
	var head string
	switch {
	case from != nil && from.Host == u.Host && from.Scheme == u.Scheme:
		if u.Path == from.Path && u.RawQuery == from.RawQuery && u.Fragment != "" {
			return trimMiddle("#"+u.Fragment, maxHref) // a jump within the page
		}
	case u.Scheme == "http" || u.Scheme == "https":
		head = strings.TrimPrefix(u.Host, "www.")
	default:
		head = u.Scheme + "://" + u.Host
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	s := head + path
	if u.RawQuery != "" {
		s += "?" + u.RawQuery
	}
	if u.Fragment != "" {
		s += "#" + u.EscapedFragment()
	}
	if len([]rune(s)) > maxHref && (u.RawQuery != "" || u.Fragment != "") {
		s = head + path + "?…"
		if u.RawQuery == "" {
			s = head + path + "#…"
		}
	}
	return trimMiddle(s, maxHref)
}

// trimMiddle keeps the start and the end of s, which say the most about a
// URL, within n characters.
func trimMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	tail := n / 3
	return string(r[:n-tail-1]) + "…" + string(r[len(r)-tail:])
}
