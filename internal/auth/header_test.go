package auth

import (
	"strings"
	"testing"
)

func TestBearerToken(t *testing.T) {
	long := strings.Repeat("x", 512)
	tests := []struct {
		header string
		want   string
		ok     bool
	}{
		{"Bearer abc", "abc", true},
		{"bearer abc", "abc", true},
		{"BEARER abc", "abc", true},
		{"Bearer    abc", "abc", true},
		{"Bearer gsk_sess_00ff", "gsk_sess_00ff", true},
		{"Bearer !~", "!~", true},
		{"Bearer " + long, long, true},
		{"Bearer " + long + "x", "", false},
		{"", "", false},
		{"Bearer", "", false},
		{"Bearer ", "", false},
		{"Bearerabc", "", false},
		{"Bearer\tabc", "", false},
		{"Basic abc", "", false},
		{" Bearer abc", "", false},
		{"Bearer abc ", "", false},
		{"Bearer abc def", "", false},
		{"Bearer ab\x7fc", "", false},
		{"Bearer ab\x00c", "", false},
		{"Bearer tökén", "", false},
		{"Bearer abc\r\n", "", false},
	}
	for _, tt := range tests {
		got, ok := BearerToken(tt.header)
		if got != tt.want || ok != tt.ok {
			t.Errorf("BearerToken(%q) = %q, %v; want %q, %v", tt.header, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCookieValue(t *testing.T) {
	tests := []struct {
		header, name string
		want         string
		ok           bool
	}{
		{"gstack_sse=abc", "gstack_sse", "abc", true},
		{"a=1; gstack_sse=abc; b=2", "gstack_sse", "abc", true},
		{"a=1;gstack_sse=abc", "gstack_sse", "abc", true},
		{"  gstack_sse  =  abc  ;", "gstack_sse", "abc", true},
		{`gstack_sse="abc"`, "gstack_sse", "abc", true},
		{`gstack_sse="`, "gstack_sse", `"`, true},
		{"gstack_sse=", "gstack_sse", "", true},
		{"gstack_sse=a=b", "gstack_sse", "a=b", true},
		{"gstack_sse=first; gstack_sse=second", "gstack_sse", "first", true},
		{"x_gstack_sse=abc", "gstack_sse", "", false},
		{"gstack_sse_x=abc", "gstack_sse", "", false},
		{"GSTACK_SSE=abc", "gstack_sse", "", false},
		{"gstack_sse", "gstack_sse", "", false},
		{"", "gstack_sse", "", false},
		{"=abc", "", "", false},
	}
	for _, tt := range tests {
		got, ok := CookieValue(tt.header, tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("CookieValue(%q, %q) = %q, %v; want %q, %v", tt.header, tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzBearerToken(f *testing.F) {
	for _, seed := range []string{
		"Bearer abc", "bearer gsk_sess_0123abcd", "BEARER   x", "Bearer", "Bearer ",
		"Bearerabc", "Basic dXNlcjpwYXNz", "Bearer a b", "Bearer tök", "Bearer \x7f",
		"Bearer " + strings.Repeat("y", 512), "Bearer " + strings.Repeat("y", 513), "",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, header string) {
		token, ok := BearerToken(header)
		if !ok {
			if token != "" {
				t.Fatalf("refused header returned a token")
			}
			return
		}
		if len(token) < 1 || len(token) > 512 {
			t.Fatalf("token length %d out of 1..512", len(token))
		}
		for i := 0; i < len(token); i++ {
			if token[i] < 0x21 || token[i] > 0x7e {
				t.Fatalf("token byte %#x is not visible ASCII", token[i])
			}
		}
		again, ok := BearerToken("Bearer " + token)
		if !ok || again != token {
			t.Fatalf("token does not re-parse to itself")
		}
	})
}

func FuzzCookieValue(f *testing.F) {
	for _, seed := range []struct{ header, name string }{
		{"gstack_sse=abc", StreamCookie},
		{"a=1; gstack_sse=\"abc\"; b=2", StreamCookie},
		{"gstack_sse", StreamCookie},
		{";;;=;=", ""},
		{"a=\"", "a"},
		{"  a  =  b ; a=c", "a"},
	} {
		f.Add(seed.header, seed.name)
	}
	f.Fuzz(func(t *testing.T, header, name string) {
		value, ok := CookieValue(header, name)
		if !ok {
			if value != "" {
				t.Fatalf("absent cookie returned a value")
			}
			return
		}
		if strings.Contains(value, ";") {
			t.Fatalf("cookie value %q contains ';'", value)
		}
		if !strings.Contains(header, name) {
			t.Fatalf("found cookie %q that is not in the header", name)
		}
	})
}
