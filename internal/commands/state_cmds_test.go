package commands

import (
	"strings"
	"testing"
)

func TestParseCookieImportShapes(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []ImportedCookie
	}{
		{"reference array", `[{"name":"sid","value":"abc","domain":".example.com","path":"/app","expires":1893456000,"httpOnly":true,"secure":true,"sameSite":"Strict"}]`,
			[]ImportedCookie{{Name: "sid", Value: "abc", Domain: ".example.com", Path: "/app", Expires: 1893456000, HTTPOnly: true, Secure: true, SameSite: "Strict"}}},
		{"playwright storage state", `{"cookies":[{"name":"a","value":"1","domain":"example.com","path":"/","expires":-1,"httpOnly":false,"secure":false,"sameSite":"Lax"}],"origins":[{"origin":"https://example.com","localStorage":[{"name":"k","value":"v"}]}]}`,
			[]ImportedCookie{{Name: "a", Value: "1", Domain: "example.com", Path: "/", Expires: -1, SameSite: "Lax"}}},
		{"devtools export", `[{"domain":".example.com","expirationDate":1893456000.5,"hostOnly":false,"httpOnly":false,"name":"pref","path":"/","sameSite":"no_restriction","secure":true,"session":false,"storeId":"0","value":"x","id":1},
			{"domain":"www.example.com","hostOnly":true,"httpOnly":true,"name":"s","path":"/","sameSite":"unspecified","secure":false,"session":true,"value":"y"}]`,
			[]ImportedCookie{
				{Name: "pref", Value: "x", Domain: ".example.com", Path: "/", Expires: 1893456000.5, Secure: true, SameSite: "None"},
				{Name: "s", Value: "y", Domain: "www.example.com", Path: "/", Expires: -1, HTTPOnly: true},
			}},
		{"url instead of domain, no path", `[{"name":"u","value":"","url":"http://localhost:3000/x"}]`,
			[]ImportedCookie{{Name: "u", Value: "", Domain: "localhost", Path: "/x", Expires: -1}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseCookieImport([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d cookies, want %d: %+v", len(got), len(tc.want), got)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("cookie %d:\n got %+v\nwant %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestParseCookieImportRefuses(t *testing.T) {
	cases := map[string]string{
		"":                                 "empty",
		"not json":                         "not JSON",
		"{}":                               `without a "cookies"`,
		`{"name":"a"}`:                     `without a "cookies"`,
		"[]":                               "no cookies",
		"[1]":                              "not a JSON array of cookie objects",
		`[{"value":"x","domain":"a.com"}]`: `no "name"`,
		`[{"name":"a","domain":"a.com"}]`:  `no "value"`,
		`[{"name":"a","value":"x"}]`:       `no "domain"`,
		`[{"name":"a","value":"x","domain":"a b.com"}]`:                           "not a host name",
		`[{"name":"a=b","value":"x","domain":"a.com"}]`:                           "'='",
		`[{"name":"a","value":"x;y","domain":"a.com"}]`:                           "';'",
		`[{"name":"a","value":"x\ny","domain":"a.com"}]`:                          "control character",
		`[{"name":"a","value":"x","domain":"a.com","sameSite":"sometimes"}]`:      "sameSite",
		`[{"name":"a","value":"x","domain":"a.com","sameSite":"None"}]`:           "needs secure",
		`[{"name":"a","value":"x","domain":"a.com","path":"rel"}]`:                "path",
		`[{"name":"a","value":5,"domain":"a.com"}]`:                               "cannot unmarshal",
		`[{"name":"a","value":"x","domain":"a.com"}] [1]`:                         "after the JSON value",
		`{"cookies":[],"origins":[{"origin":"javascript:alert(1)"}]}`:             "origin 1",
		`[{"name":"ok","value":"1","domain":"a.com"},{"name":"bad","value":"1"}]`: `cookie 2 ("bad")`,
	}
	for in, want := range cases {
		got, err := ParseCookieImport([]byte(in))
		if err == nil {
			t.Errorf("%q: accepted %+v", in, got)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %q does not mention %q", in, err, want)
		}
	}
}

func TestCookieParamHostOnly(t *testing.T) {
	p := ImportedCookie{Name: "a", Value: "1", Domain: "example.com", Path: "/p", Secure: true, Expires: -1}.param()
	if p.URL != "https://example.com/p" || p.Domain != "" || p.Expires != 0 {
		t.Errorf("host-only cookie param = %+v", p)
	}
	p = ImportedCookie{Name: "a", Value: "1", Domain: ".example.com", Path: "/", Expires: 100}.param()
	if p.URL != "" || p.Domain != ".example.com" || p.Expires != 100 {
		t.Errorf("domain cookie param = %+v", p)
	}
}

func TestTruncateValue(t *testing.T) {
	for in, want := range map[string]string{
		"":                    "",
		"short":               "…(5 chars)",
		"12345678":            "…(8 chars)",
		"supersecretvalue123": "supe…(19 chars)",
		"ééééééééé":           "éééé…(9 chars)",
	} {
		if got := TruncateValue(in); got != want {
			t.Errorf("TruncateValue(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseHeader(t *testing.T) {
	ok := map[string][2]string{
		"X-Test: 1":                   {"X-Test", "1"},
		"X-Test:1":                    {"X-Test", "1"},
		"Authorization: Bearer a b  ": {"Authorization", "Bearer a b"},
		"X-Clear:":                    {"X-Clear", ""},
		"X-Tab:\ta\tb":                {"X-Tab", "a\tb"},
		"X-Colon: a:b":                {"X-Colon", "a:b"},
	}
	for in, want := range ok {
		name, value, err := ParseHeader(in)
		if err != nil || name != want[0] || value != want[1] {
			t.Errorf("ParseHeader(%q) = %q, %q, %v; want %q, %q", in, name, value, err, want[0], want[1])
		}
	}
	for _, in := range []string{"", "no colon", ": v", "X Test: 1", "X-Test : 1", "X-Test: a\r\nInjected: 1", "X-Test: a\nb", "X-Test: \x00", "Bad(name): 1", "X-Ünicode: 1"} {
		if name, value, err := ParseHeader(in); err == nil {
			t.Errorf("ParseHeader(%q) accepted: %q, %q", in, name, value)
		}
	}
}

func TestRedactHeader(t *testing.T) {
	for _, tc := range [][3]string{
		{"Authorization", "Bearer s3cr3t", "Authorization: Bearer ****"},
		{"authorization", "s3cr3t", "authorization: ****"},
		{"Proxy-Authorization", "Basic dXNlcjpwYXNz", "Proxy-Authorization: Basic ****"},
		{"Cookie", "a=b", "Cookie: ****"},
		{"X-Api-Key", "k", "X-Api-Key: ****"},
		{"X-Auth-Token", "Token abc", "X-Auth-Token: Token ****"},
		{"X-Client-Secret", "abc def", "X-Client-Secret: ****"},
		{"X-Test", "visible value", "X-Test: visible value"},
	} {
		if got := RedactHeader(tc[0], tc[1]); got != tc[2] {
			t.Errorf("RedactHeader(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}

func FuzzParseHeader(f *testing.F) {
	for _, s := range []string{"X-Test: 1", "Authorization: Bearer x", "X:", ":", "a\r\nb: c", "X-Test: a\tb", "ü: 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, value, err := ParseHeader(s)
		if err != nil {
			return
		}
		if name == "" {
			t.Fatalf("%q: empty name accepted", s)
		}
		for i := 0; i < len(name); i++ {
			if !isTokenChar(name[i]) {
				t.Fatalf("%q: name %q holds a non-token byte", s, name)
			}
		}
		if strings.ContainsAny(value, "\r\n\x00") {
			t.Fatalf("%q: value %q holds CR, LF or NUL", s, value)
		}
		if value != strings.Trim(value, " \t") {
			t.Fatalf("%q: value %q not trimmed", s, value)
		}
		// What was accepted parses back to itself.
		n2, v2, err := ParseHeader(name + ": " + value)
		if err != nil || n2 != name || v2 != value {
			t.Fatalf("%q: round trip gave %q, %q, %v", s, n2, v2, err)
		}
		_ = RedactHeader(name, value)
	})
}

func FuzzParseCookieImport(f *testing.F) {
	for _, s := range []string{
		`[{"name":"sid","value":"abc","domain":".example.com","path":"/","expires":-1,"httpOnly":true,"secure":true,"sameSite":"Strict"}]`,
		`{"cookies":[{"name":"a","value":"1","domain":"example.com"}],"origins":[{"origin":"https://example.com","localStorage":[{"name":"k","value":"v"}]}]}`,
		`[{"domain":".example.com","expirationDate":1.5e9,"hostOnly":true,"name":"p","path":"/","sameSite":"no_restriction","secure":true,"value":"x"}]`,
		`[{"name":"u","value":"","url":"https://[::1]:8080/x"}]`,
		`{}`, `[]`, `[1]`, `null`, `"x"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cookies, err := ParseCookieImport(data)
		if err != nil {
			if cookies != nil {
				t.Fatal("cookies returned with an error")
			}
			return
		}
		if len(cookies) == 0 {
			t.Fatal("no cookies and no error")
		}
		for _, ck := range cookies {
			if ck.Name == "" || ck.Domain == "" || ck.Path == "" || ck.Path[0] != '/' {
				t.Fatalf("incomplete cookie accepted: %+v", ck)
			}
			if checkCookieText("name", ck.Name, true) != nil || checkCookieText("value", ck.Value, false) != nil {
				t.Fatalf("bad text accepted: %+v", ck)
			}
			switch ck.SameSite {
			case "", "Strict", "Lax":
			case "None":
				if !ck.Secure {
					t.Fatalf("SameSite=None without Secure accepted: %+v", ck)
				}
			default:
				t.Fatalf("sameSite %q", ck.SameSite)
			}
			if ck.Expires != -1 && ck.Expires <= 0 {
				t.Fatalf("expires %v", ck.Expires)
			}
			if p := ck.param(); (p.URL == "") == (p.Domain == "") {
				t.Fatalf("param needs exactly one of url and domain: %+v", p)
			}
		}
	})
}
