package commands

import (
	"bytes"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestSafeFileName(t *testing.T) {
	long := strings.Repeat("é", 100) + ".png"
	cases := map[string]string{
		"photo.png":            "photo.png",
		"../../etc/passwd":     "passwd",
		`..\..\boot.ini`:       "boot.ini",
		"..":                   "download",
		".":                    "download",
		"":                     "download",
		" .hidden ":            "hidden",
		"a..b.txt":             "a.b.txt",
		"re\x00port\x07.csv":   "report.csv",
		`what?<is>:"this"|*.x`: "what__is___this___.x",
		"tab\there.txt":        "tab here.txt",
		"trailing.":            "trailing",
		"/":                    "download",
		"dir/":                 "download",
		"\xff\xfe.bin":         "bin",
	}
	for in, want := range cases {
		if got := SafeFileName(in); got != want {
			t.Errorf("SafeFileName(%q) = %q, want %q", in, got, want)
		}
	}
	got := SafeFileName(long)
	if len(got) > maxFileNameBytes || !strings.HasSuffix(got, ".png") || !utf8.ValidString(got) {
		t.Errorf("SafeFileName(long) = %q (%d bytes)", got, len(got))
	}
}

func FuzzSafeFileName(f *testing.F) {
	for _, s := range []string{"photo.png", "../x", "..", `a\b`, "\x00", strings.Repeat("x", 300) + ".jpeg", " . ", "é.é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := SafeFileName(in)
		switch {
		case got == "" || got == "." || got == "..":
			t.Fatalf("SafeFileName(%q) = %q", in, got)
		case len(got) > maxFileNameBytes:
			t.Fatalf("SafeFileName(%q) is %d bytes", in, len(got))
		case strings.ContainsAny(got, `/\`), strings.Contains(got, ".."):
			t.Fatalf("SafeFileName(%q) = %q has a separator or ..", in, got)
		case !utf8.ValidString(got):
			t.Fatalf("SafeFileName(%q) = %q is not UTF-8", in, got)
		case strings.IndexFunc(got, unicode.IsControl) >= 0:
			t.Fatalf("SafeFileName(%q) = %q has a control character", in, got)
		}
		if dir := "/x/y"; filepath.Dir(filepath.Join(dir, got)) != dir {
			t.Fatalf("SafeFileName(%q) = %q leaves its directory", in, got)
		}
		if again := SafeFileName(got); again != got {
			t.Fatalf("SafeFileName is not stable: %q → %q → %q", in, got, again)
		}
	})
}

func TestLooksLikeURL(t *testing.T) {
	for s, want := range map[string]bool{
		"https://example.com/a.png": true,
		"http://x":                  true,
		"data:image/png;base64,AA=": true,
		"about:blank":               true,
		"file:///etc/passwd":        true,
		"/images/a.png":             true,
		"./a.png":                   true,
		"../a.png":                  true,
		"localhost:3000/x.png":      true,
		"example.com/files/a.pdf":   true,
		"a[href='/x']":              false,
		"nav a[href*='/docs/']":     false,
		"img":                       false,
		"img.logo":                  false,
		"a:hover":                   false,
		"#hero > img":               false,
		"video source":              false,
		"@e3":                       false,
	} {
		if got := looksLikeURL(s); got != want {
			t.Errorf("looksLikeURL(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestParseDataURL(t *testing.T) {
	cases := []struct {
		in, mime string
		data     []byte
	}{
		{"data:image/png;base64,iVBORw0K", "image/png", []byte("\x89PNG\r\n")},
		{"data:,hello%20world", "text/plain", []byte("hello world")},
		{"data:text/plain;charset=utf-8,caf%C3%A9", "text/plain", []byte("café")},
		{"DATA:image/gif;BASE64,R0lGOD", "image/gif", []byte("GIF8")},
		{"data:image/png;base64,iVBO Rw0K", "image/png", []byte("\x89PNG\r\n")},
		{"data:;base64,aGk", "text/plain", []byte("hi")},
	}
	for _, c := range cases {
		mt, data, err := parseDataURL(c.in)
		if err != nil || mt != c.mime || !bytes.Equal(data, c.data) {
			t.Errorf("parseDataURL(%q) = %q, %q, %v; want %q, %q", c.in, mt, data, err, c.mime, c.data)
		}
	}
	for _, bad := range []string{"data:image/png;base64", "data:;base64,***", "http://x", "data:,%zz"} {
		if _, _, err := parseDataURL(bad); err == nil {
			t.Errorf("parseDataURL(%q) succeeded", bad)
		}
	}
}

func FuzzParseDataURL(f *testing.F) {
	f.Add("data:image/png;base64,iVBORw0K")
	f.Add("data:,x")
	f.Add("data:a/b;c=d;base64,====")
	f.Fuzz(func(t *testing.T, in string) {
		mt, _, err := parseDataURL(in)
		if err == nil && (mt == "" || !strings.Contains(mt, "/")) {
			t.Fatalf("parseDataURL(%q) gave MIME type %q", in, mt)
		}
	})
}

func TestNameFromResponse(t *testing.T) {
	u, _ := url.Parse("https://cdn.example.com/files/photo%20one.jpg?x=1")
	resp := &http.Response{Header: http.Header{}, Request: &http.Request{URL: u}}
	if got := nameFromResponse(resp); got != "photo one.jpg" {
		t.Errorf("from URL: %q", got)
	}
	resp.Header.Set("Content-Disposition", `attachment; filename="report.csv"`)
	if got := nameFromResponse(resp); got != "report.csv" {
		t.Errorf("from Content-Disposition: %q", got)
	}
	resp.Header.Set("Content-Disposition", `attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`)
	if got := nameFromResponse(resp); got != "résumé.pdf" {
		t.Errorf("from filename*: %q", got)
	}
}

func TestRefererFor(t *testing.T) {
	page, _ := url.Parse("https://shop.example.com/item/1?q=2#top")
	for target, want := range map[string]string{
		"https://shop.example.com/img/a.png": "https://shop.example.com/item/1?q=2",
		"https://cdn.example.net/a.png":      "https://shop.example.com/",
		"http://shop.example.com/a.png":      "",
	} {
		u, _ := url.Parse(target)
		if got := refererFor(page, u); got != want {
			t.Errorf("refererFor(%s) = %q, want %q", target, got, want)
		}
	}
	if got := refererFor(nil, page); got != "" {
		t.Errorf("no page: %q", got)
	}
}

func TestWithExtension(t *testing.T) {
	if got := withExtension("photo", "image/png"); got != "photo.png" {
		t.Errorf("withExtension = %q", got)
	}
	if got := withExtension("photo.jpeg", "image/png"); got != "photo.jpeg" {
		t.Errorf("withExtension keeps an extension: %q", got)
	}
}
