package commands

import "strings"

// WrapAwait prepares code for evaluation. Code that uses await is wrapped in an
// async function: a single expression as its return value, anything with
// statements as its body (which then needs an explicit return for a value).
// "await" inside comments and strings does not count.
func WrapAwait(code string) string {
	bare := stripCommentsAndStrings(code)
	if !hasWord(bare, "await") {
		return code
	}
	trimmed := strings.TrimRight(strings.TrimSpace(code), ";")
	if !strings.ContainsAny(stripCommentsAndStrings(trimmed), ";\n") && !hasWord(bare, "return") {
		return "(async () => (" + trimmed + "))()"
	}
	return "(async () => {\n" + code + "\n})()"
}

// stripCommentsAndStrings blanks out comments and string/template literal
// contents so keyword checks see only code.
func stripCommentsAndStrings(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			if i < len(s) {
				b.WriteByte('\n')
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
			b.WriteByte(' ')
		case c == '\'' || c == '"' || c == '`':
			quote := c
			i++
			for i < len(s) && s[i] != quote {
				if s[i] == '\\' {
					i++
				}
				i++
			}
			b.WriteString(`""`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func hasWord(s, word string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(word)
		if (start == 0 || !isIdent(s[start-1])) && (end == len(s) || !isIdent(s[end])) {
			return true
		}
		i = end
	}
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
