package auth

import "strings"

const maxBearerTokenLen = 512

// BearerToken parses an Authorization header value: the scheme "Bearer"
// in any case, one or more spaces, then a token of 1 to 512 visible ASCII
// bytes (0x21-0x7e) and nothing after it.
func BearerToken(header string) (string, bool) {
	const scheme = "Bearer"
	if len(header) <= len(scheme) || !strings.EqualFold(header[:len(scheme)], scheme) {
		return "", false
	}
	rest := header[len(scheme):]
	token := strings.TrimLeft(rest, " ")
	if len(token) == len(rest) { // no space after the scheme ("Bearerx")
		return "", false
	}
	if len(token) == 0 || len(token) > maxBearerTokenLen {
		return "", false
	}
	for i := 0; i < len(token); i++ {
		if token[i] < 0x21 || token[i] > 0x7e {
			return "", false
		}
	}
	return token, true
}

// CookieValue finds the cookie called name in a Cookie header such as
// "a=1; b=2". Names match exactly; spaces around names and values are
// ignored, and one pair of double quotes around a value is removed.
// The first cookie with the name wins.
func CookieValue(header, name string) (string, bool) {
	if name == "" {
		return "", false
	}
	for _, part := range strings.Split(header, ";") {
		key, value, found := strings.Cut(part, "=")
		if !found || strings.TrimSpace(key) != name {
			continue
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			value = value[1 : len(value)-1]
		}
		return value, true
	}
	return "", false
}
