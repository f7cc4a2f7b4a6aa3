package main

import (
	"fmt"
	"net/http"
	"strings"
)

// The two synthetic pages are copies of bench/main.go's, changed only so
// that click and fill have a harmless target: the bench page's "Sign in"
// button does not submit (a submit would navigate and stale every ref), and
// the big page gains a text box (type=text, so both tools call it a textbox;
// a search input would be a searchbox).

// target is an element both tools must find in their own `snapshot -i`.
type target struct {
	role, label string
}

type benchPage struct {
	path, what    string
	handler       http.HandlerFunc
	button, field target
	fillValue     string
}

var benchPages = []benchPage{
	{
		path: "/page", what: "200-link page", handler: linksPage,
		button: target{"button", "Sign in"}, field: target{"textbox", "Email"},
		fillValue: "bench@example.com",
	},
	{
		path: "/big", what: "2,000-element page", handler: bigPage,
		// A row in the middle, so neither tool gets the top of the page for free.
		button: target{"button", "Edit 200"}, field: target{"textbox", "Search rows"},
		fillValue: "row 200",
	},
}

// linksPage is a realistic page: a nav of 200 links, a form, some prose.
func linksPage(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	b.WriteString("<!doctype html><title>Bench page</title><h1>Benchmark</h1><nav><ul>")
	for i := range 200 {
		fmt.Fprintf(&b, `<li><a href="/item/%d">Item number %d</a></li>`, i, i)
	}
	b.WriteString(`</ul></nav><form><label>Email <input name=email type=email></label>
<label>Password <input name=pw type=password></label><label><input type=checkbox name=remember> Remember me</label>
<select name=plan><option>Free</option><option>Pro</option></select><button type=button>Sign in</button></form>`)
	for i := range 20 {
		fmt.Fprintf(&b, "<p>Paragraph %d with some ordinary prose to read.</p>", i)
	}
	w.Write([]byte(b.String()))
}

// bigPage is 2,000 elements, a table of 400 rows × 5, under a search box.
func bigPage(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	b.WriteString("<!doctype html><title>Big</title><label>Search rows <input name=q></label><table>")
	for i := range 400 {
		fmt.Fprintf(&b, "<tr><td>Row %d</td><td>%d</td><td><a href='/r/%d'>open</a></td><td><button>Edit %d</button></td></tr>", i, i*7, i, i)
	}
	b.WriteString("</table>")
	w.Write([]byte(b.String()))
}
