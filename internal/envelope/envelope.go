// Package envelope marks page content as untrusted before an agent reads it.
//
// Output that comes from a web page is wrapped between a BEGIN and an END
// line, so a model can tell the page's words from its user's. A page must
// not be able to end the envelope early or open a fake one, so every
// marker-like phrase inside the wrapped text is defused with a zero-width
// space. A per-session canary catches the other half of the attack: page
// text that has talked the agent into sending its context somewhere.
package envelope

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	beginMarker = "--- BEGIN UNTRUSTED EXTERNAL CONTENT"
	endLine     = "--- END UNTRUSTED EXTERNAL CONTENT ---"
	warnPrefix  = "⚠ CONTENT WARNINGS: "

	// zeroWidthSpace goes after the C of CONTENT: the phrase still reads
	// the same to a person, but no longer matches the marker.
	zeroWidthSpace = "\u200b"

	maxSourceBytes  = 200
	maxWarningBytes = 160
)

// maxWarnings is the most warnings the line above the envelope carries.
const maxWarnings = 10

// Wrap puts content between the envelope's BEGIN and END lines, naming
// source (the page's URL) on the BEGIN line. Warnings, when there are any,
// go on one line above BEGIN:
//
//	⚠ CONTENT WARNINGS: w1; w2
//	--- BEGIN UNTRUSTED EXTERNAL CONTENT (source: <url>) ---
//	<content>
//	--- END UNTRUSTED EXTERNAL CONTENT ---
//
// Content, source and warnings are all escaped; the source and warnings are
// also kept to one short line each, and at most maxWarnings warnings.
func Wrap(content, source string, warnings []string) string {
	source = truncate(strings.Map(dropLineBreaking, source), maxSourceBytes)
	if source == "" {
		source = "unknown"
	}
	cleaned := make([]string, 0, len(warnings))
	warnBytes := 0
	for _, w := range warnings {
		if len(cleaned) == maxWarnings {
			break // the warnings line is outside the envelope: keep it short
		}
		w = strings.TrimSpace(strings.Map(spaceLineBreaking, w))
		if w == "" {
			continue
		}
		w = truncate(Escape(w), maxWarningBytes)
		cleaned = append(cleaned, w)
		warnBytes += len(w) + 2
	}

	var b strings.Builder
	// Room for a few defused markers, so the common case never regrows.
	b.Grow(len(warnPrefix) + warnBytes + len(beginMarker) + len(source) + len(content) + len(endLine) + 64)
	if len(cleaned) > 0 {
		b.WriteString(warnPrefix)
		for i, w := range cleaned {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(w)
		}
		b.WriteByte('\n')
	}
	b.WriteString(beginMarker)
	b.WriteString(" (source: ")
	escapeInto(&b, source)
	b.WriteString(") ---\n")
	escapeInto(&b, content)
	if content != "" && content[len(content)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString(endLine)
	return b.String()
}

// Escape defuses every envelope marker in s, ours and the reference's
// scoped-client one ("═══ BEGIN UNTRUSTED WEB CONTENT ═══"), by putting a
// zero-width space after the C of CONTENT. It matches the phrase
// "untrusted external|web content" whatever precedes it, in any case, with
// any run of spaces, dashes, underscores or invisible characters between
// the words, invisible characters inside them, and the common lookalike
// letters (fullwidth, Cyrillic, Greek). Text without such a phrase is
// returned as is, without allocating. Escaping twice changes nothing more.
func Escape(s string) string {
	if cut, _ := nextMarker(s, 0); cut < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 4*len(zeroWidthSpace))
	escapeInto(&b, s)
	return b.String()
}

// escapeInto writes s to b with its markers defused.
func escapeInto(b *strings.Builder, s string) {
	written := 0
	for from := 0; ; {
		cut, end := nextMarker(s, from)
		if cut < 0 {
			break
		}
		b.WriteString(s[written:cut])
		b.WriteString(zeroWidthSpace)
		written, from = cut, end
	}
	b.WriteString(s[written:])
}

// nextMarker finds the next marker phrase at or after from that still needs
// defusing. It returns where the zero-width space goes (just after the C of
// CONTENT) and where the phrase ends, or -1, -1.
func nextMarker(s string, from int) (cut, end int) {
	// A phrase starts with a letter that reads as "u": u, U, or one whose
	// UTF-8 lead byte is that of a fullwidth, Greek or Armenian lookalike.
	// Jumping between these bytes with IndexByte keeps plain text fast.
	var next [len(uStarts)]int
	for k := range next {
		next[k] = indexFrom(s, from, uStarts[k])
	}
	for {
		k := 0
		for j := range next {
			if next[j] < next[k] {
				k = j
			}
		}
		i := next[k]
		if i >= len(s) {
			return -1, -1
		}
		next[k] = indexFrom(s, i+1, uStarts[k])
		if k < 2 && i+1 < len(s) && s[i+1] < utf8.RuneSelf && s[i+1]|0x20 != 'n' {
			continue // the common case: an ASCII u in some other word
		}
		cut, end, ok := markerAt(s, i)
		if !ok {
			continue
		}
		if !strings.HasPrefix(s[cut:], zeroWidthSpace) {
			return cut, end
		}
		// Already defused: look past it.
		for j := range next {
			if next[j] < end {
				next[j] = indexFrom(s, end, uStarts[j])
			}
		}
	}
}

var uStarts = [...]byte{'u', 'U', 0xEF, 0xCF, 0xD5}

// indexFrom is the index of c in s at or after i, or len(s).
func indexFrom(s string, i int, c byte) int {
	if i >= len(s) {
		return len(s)
	}
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return len(s)
}

// markerAt matches "untrusted (external|web) content" starting at i.
func markerAt(s string, i int) (cut, end int, ok bool) {
	if i, ok = word(s, i, "untrusted"); !ok {
		return 0, 0, false
	}
	i = skipSeparators(s, i)
	j, ok := word(s, i, "external")
	if !ok {
		if j, ok = word(s, i, "web"); !ok {
			return 0, 0, false
		}
	}
	i = skipSeparators(s, j)
	if cut, ok = word(s, i, "c"); !ok {
		return 0, 0, false
	}
	end, ok = word(s, skipInvisible(s, cut), "ontent")
	return cut, end, ok
}

// word matches the lower-case ASCII word w at i, letting invisible
// characters sit between its letters and lookalikes stand for them.
func word(s string, i int, w string) (int, bool) {
	for k := 0; k < len(w); k++ {
		if k > 0 {
			i = skipInvisible(s, i)
		}
		if i >= len(s) {
			return i, false
		}
		var r rune
		n := 1
		if c := s[i]; c < utf8.RuneSelf {
			r = rune(c)
		} else {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if asciiLetter(r) != w[k] {
			return i, false
		}
		i += n
	}
	return i, true
}

// asciiLetter is the lower-case ASCII letter r is or looks like, or 0.
func asciiLetter(r rune) byte {
	switch {
	case r >= 'a' && r <= 'z':
		return byte(r)
	case r >= 'A' && r <= 'Z':
		return byte(r) | 0x20
	case r >= 'Ａ' && r <= 'Ｚ':
		return byte(r-'Ａ') + 'a'
	case r >= 'ａ' && r <= 'ｚ':
		return byte(r-'ａ') + 'a'
	case r < utf8.RuneSelf:
		return 0
	}
	return lookalikes[r]
}

// lookalikes are Cyrillic, Greek and other letters that render like the
// Latin letters of the marker words (only those letters matter).
var lookalikes = map[rune]byte{
	'а': 'a', 'А': 'a', 'Α': 'a',
	'В': 'b', 'Β': 'b', 'Ь': 'b',
	'с': 'c', 'С': 'c', 'ϲ': 'c', 'Ϲ': 'c', 'ⅽ': 'c', 'Ⅽ': 'c',
	'ԁ': 'd', 'ⅾ': 'd', 'Ⅾ': 'd',
	'е': 'e', 'Е': 'e', 'Ε': 'e', 'ё': 'e', 'Ё': 'e',
	'ӏ': 'l', 'Ι': 'l', 'І': 'l', 'ⅼ': 'l', 'Ⅼ': 'l',
	'Ν': 'n', 'ո': 'n',
	'о': 'o', 'О': 'o', 'ο': 'o', 'Ο': 'o', 'օ': 'o',
	'г': 'r',
	'ѕ': 's', 'Ѕ': 's', 'ſ': 's',
	'т': 't', 'Т': 't', 'Τ': 't',
	'ս': 'u', 'υ': 'u', 'Ս': 'u',
	'ԝ': 'w', 'Ԝ': 'w', 'ѡ': 'w',
	'х': 'x', 'Х': 'x', 'Χ': 'x', 'ⅹ': 'x', 'Ⅹ': 'x',
}

// skipInvisible steps over characters that render as nothing (zero-width
// spaces and joiners, soft hyphens, direction marks, combining marks).
func skipInvisible(s string, i int) int {
	for i < len(s) && s[i] >= utf8.RuneSelf {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !invisible(r) {
			break
		}
		i += n
	}
	return i
}

// skipSeparators steps over what may sit between the marker's words.
func skipSeparators(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != '-' && r != '_' && !unicode.IsSpace(r) && !invisible(r) {
			break
		}
		i += n
	}
	return i
}

func invisible(r rune) bool {
	switch {
	case r == 0xAD, r == 0x34F, r == 0x180E, r == 0xFEFF,
		r >= 0x200B && r <= 0x200F,
		r >= 0x202A && r <= 0x202E,
		r >= 0x2060 && r <= 0x2069:
		return true
	}
	return r >= 0x300 && unicode.Is(unicode.Mn, r)
}

// dropLineBreaking removes control characters, line and paragraph
// separators and direction overrides: a source URL stays on its line and
// reads in order.
func dropLineBreaking(r rune) rune {
	if lineBreaking(r) {
		return -1
	}
	return r
}

func spaceLineBreaking(r rune) rune {
	if lineBreaking(r) {
		return ' '
	}
	return r
}

func lineBreaking(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' ||
		(r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

// truncate cuts s to at most n bytes without splitting a character.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// NewCanary returns a fresh per-session secret, "CANARY-" and 12
// upper-case hex digits.
func NewCanary() string {
	var b [6]byte
	rand.Read(b[:]) // never fails (crypto/rand panics instead)
	return "CANARY-" + strings.ToUpper(hex.EncodeToString(b[:]))
}

// Leaked reports whether the canary appears in any argument, in any case,
// as is or URL-encoded (percent escapes, '+' for space, up to three layers
// deep). An empty canary never leaks.
func Leaked(canary string, args []string) bool {
	if canary == "" {
		return false
	}
	want := strings.ToLower(canary)
	for _, a := range args {
		for range 4 {
			if strings.Contains(strings.ToLower(a), want) {
				return true
			}
			decoded := urlDecode(a)
			if decoded == a {
				break
			}
			a = decoded
		}
	}
	return false
}

// urlDecode undoes percent-encoding and '+' leniently: a malformed escape
// is kept as written rather than failing the whole string.
func urlDecode(s string) string {
	if !strings.ContainsAny(s, "%+") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+':
			b.WriteByte(' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}
