package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/page"

	"github.com/browsehq/browse/internal/browser"
)

// pdfOptions are pdf's settings: from the flags, or from a --from-file
// payload, whose keys are the flag names in camel case.
type pdfOptions struct {
	Format            string `json:"format"`
	Width             string `json:"width"`
	Height            string `json:"height"`
	Margins           string `json:"margins"`
	MarginTop         string `json:"marginTop"`
	MarginRight       string `json:"marginRight"`
	MarginBottom      string `json:"marginBottom"`
	MarginLeft        string `json:"marginLeft"`
	HeaderTemplate    string `json:"headerTemplate"`
	FooterTemplate    string `json:"footerTemplate"`
	PageNumbers       bool   `json:"pageNumbers"`
	Tagged            bool   `json:"tagged"`
	Outline           bool   `json:"outline"`
	PrintBackground   bool   `json:"printBackground"`
	PreferCSSPageSize bool   `json:"preferCSSPageSize"`
	Landscape         bool   `json:"landscape"`
	TOC               bool   `json:"toc"`
	Output            string `json:"output"` // the path, when the payload gives it
}

// paperSizes in inches.
var paperSizes = map[string][2]float64{
	"letter": {8.5, 11},
	"legal":  {8.5, 14},
	"a4":     {8.27, 11.69},
}

// valueFlags maps each value flag to its field; switches does the same for
// the flags without a value.
func (o *pdfOptions) valueFlags() map[string]*string {
	return map[string]*string{
		"--format": &o.Format, "--width": &o.Width, "--height": &o.Height, "--margins": &o.Margins,
		"--margin-top": &o.MarginTop, "--margin-right": &o.MarginRight, "--margin-bottom": &o.MarginBottom, "--margin-left": &o.MarginLeft,
		"--header-template": &o.HeaderTemplate, "--footer-template": &o.FooterTemplate,
	}
}

func (o *pdfOptions) switches() map[string]*bool {
	return map[string]*bool{
		"--page-numbers": &o.PageNumbers, "--tagged": &o.Tagged, "--outline": &o.Outline, "--print-background": &o.PrintBackground,
		"--prefer-css-page-size": &o.PreferCSSPageSize, "--landscape": &o.Landscape, "--toc": &o.TOC,
	}
}

// ParsePDFPayload reads a --from-file payload: a JSON object of pdf options.
// Unknown keys are errors, so a typo is not silently ignored.
func ParsePDFPayload(data []byte) (pdfOptions, error) {
	var o pdfOptions
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return o, fmt.Errorf("the payload is not a JSON object of pdf options: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return o, fmt.Errorf("the payload has data after its JSON object")
	}
	return o, nil
}

// ParseDimension reads a length for paper and margins ("8.5in", "210mm",
// "2cm", "96px", or a bare number of CSS pixels) and returns inches.
func ParseDimension(s string) (float64, error) {
	v := strings.TrimSpace(strings.ToLower(s))
	units := []struct {
		suffix string
		per    float64 // units per inch
	}{{"in", 1}, {"mm", 25.4}, {"cm", 2.54}, {"px", 96}, {"", 96}}
	for _, u := range units {
		if !strings.HasSuffix(v, u.suffix) {
			continue
		}
		n, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(v, u.suffix)), 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			break
		}
		inches := n / u.per
		if inches < 0 || inches > 200 {
			return 0, fmt.Errorf("%q is out of range (0 to 200 inches)", s)
		}
		return inches, nil
	}
	return 0, fmt.Errorf("%q is not a length: use a number with in, mm, cm or px (e.g. 8.5in, 20mm)", s)
}

// pageNumberFooter is the footer --page-numbers adds.
const pageNumberFooter = `<div style="font-size:9px;width:100%;text-align:center;color:#555"><span class="pageNumber"></span> / <span class="totalPages"></span></div>`

// printParams turns the options into Chromium's print settings.
func (o *pdfOptions) printParams() (page.PrintToPDFParams, error) {
	yes := true
	p := page.PrintToPDFParams{PaperWidth: 8.5, PaperHeight: 11}
	if o.Format != "" {
		size, ok := paperSizes[strings.ToLower(o.Format)]
		if !ok {
			return p, fmt.Errorf("--format must be letter, a4 or legal, got %q", o.Format)
		}
		p.PaperWidth, p.PaperHeight = size[0], size[1]
	}
	for _, d := range []struct {
		val  string
		name string
		into *float64
	}{{o.Width, "--width", &p.PaperWidth}, {o.Height, "--height", &p.PaperHeight}} {
		if d.val == "" {
			continue
		}
		in, err := ParseDimension(d.val)
		if err != nil || in < 1 {
			return p, fmt.Errorf("%s must be a length of at least 1in: %q", d.name, d.val)
		}
		*d.into = in
	}
	margins := []struct {
		val  string
		name string
		into **float64
	}{{o.MarginTop, "--margin-top", &p.MarginTop}, {o.MarginRight, "--margin-right", &p.MarginRight},
		{o.MarginBottom, "--margin-bottom", &p.MarginBottom}, {o.MarginLeft, "--margin-left", &p.MarginLeft}}
	for _, m := range margins {
		val := m.val
		if val == "" {
			val = o.Margins
		}
		if val == "" {
			continue
		}
		in, err := ParseDimension(val)
		if err != nil {
			return p, fmt.Errorf("%s: %v", m.name, err)
		}
		*m.into = &in
	}
	footer := o.FooterTemplate
	if o.PageNumbers && footer == "" {
		footer = pageNumberFooter
	}
	if o.HeaderTemplate != "" || footer != "" {
		p.DisplayHeaderFooter = &yes
		// An empty template stands for "none": Chromium's default would
		// print the date and title.
		p.HeaderTemplate, p.FooterTemplate = orEmptySpan(o.HeaderTemplate), orEmptySpan(footer)
		// Templates draw inside the margins: leave them room unless told.
		room := 0.6
		if p.MarginTop == nil {
			p.MarginTop = &room
		}
		if p.MarginBottom == nil {
			p.MarginBottom = &room
		}
	}
	if o.Landscape {
		p.Landscape = &yes
	}
	if o.PrintBackground {
		p.PrintBackground = &yes
	}
	if o.PreferCSSPageSize || o.TOC {
		// Paged.js lays pages out with @page rules.
		p.PreferCSSPageSize = &yes
	}
	if o.Tagged {
		p.GenerateTaggedPDF = &yes
	}
	if o.Outline {
		p.GenerateDocumentOutline = &yes
	}
	return p, nil
}

func orEmptySpan(s string) string {
	if s == "" {
		return "<span></span>"
	}
	return s
}

func runPDF(ctx context.Context, c *Call) (string, error) {
	cmd := mustLookup("pdf")
	var o pdfOptions
	if path, ok := c.Flags["--from-file"]; ok {
		data, err := readCheckedFile(c, path, maxPayloadBytes, "Keep the payload under 10 MB: it holds options and templates, not the page.")
		if err != nil {
			return "", err
		}
		if o, err = ParsePDFPayload(data); err != nil {
			return "", Errorf(`Write a JSON object such as {"format": "a4", "footerTemplate": "…"}.`, "Bad --from-file payload %s: %v.", path, err)
		}
	}
	// Flags on the command line win over the payload.
	for name, field := range o.valueFlags() {
		if v, ok := c.Flags[name]; ok {
			*field = v
		}
	}
	for name, field := range o.switches() {
		if c.Has(name) {
			*field = true
		}
	}
	params, err := o.printParams()
	if err != nil {
		return "", UsageError(cmd, "%v.", err)
	}
	out := o.Output
	if len(c.Args) == 1 {
		out = c.Args[0]
	}
	path, err := outputPath(c, out, "browse-page.pdf")
	if err != nil {
		return "", err
	}
	note := ""
	if o.TOC {
		if note, err = waitForPagedJS(ctx, c.Tab); err != nil {
			return "", pageError(err)
		}
	}
	res, err := c.Tab.PrintToPDF(ctx, params)
	if err != nil {
		if ctx.Err() == nil && strings.Contains(err.Error(), "Printing failed") {
			return "", Errorf("Check the paper size and margins: the margins must leave room for content.", "Chromium could not print the page with these settings.")
		}
		return "", pageError(err)
	}
	if err := writeOutput(path, res); err != nil {
		return "", err
	}
	msg := fmt.Sprintf("PDF saved: %s (%s", path, browser.HumanBytes(int64(len(res))))
	switch n := pdfPageCount(res); {
	case n == 1:
		msg += ", 1 page"
	case n > 1:
		msg += fmt.Sprintf(", %d pages", n)
	}
	return msg + ")" + note, nil
}

// pdfPageCount counts the page objects Chromium writes ("/Type /Page"),
// which it does not compress; 0 when it cannot tell.
func pdfPageCount(pdf []byte) int {
	n := 0
	for rest := pdf; ; {
		i := bytes.Index(rest, []byte("/Type /Page"))
		if i < 0 {
			return n
		}
		rest = rest[i+len("/Type /Page"):]
		if len(rest) == 0 || rest[0] != 's' {
			n++
		}
	}
}

// pagedJSWait bounds how long --toc waits for Paged.js to lay out a page.
const pagedJSWait = 10 * time.Second

// waitForPagedJS waits until Paged.js, when the page loads it, has laid out
// every page: its page count must hold still for half a second.
func waitForPagedJS(ctx context.Context, tab *browser.Tab) (string, error) {
	started := time.Now()
	const probe = `(() => {
		const loaded = !!(window.Paged || window.PagedPolyfill || document.querySelector('script[src*="paged"]'));
		return {loaded, pages: document.querySelectorAll('.pagedjs_page').length};
	})()`
	var last, stableSince = -1, time.Now()
	for {
		obj, err := tab.Evaluate(ctx, probe)
		if err != nil {
			return "", err
		}
		var st struct {
			Loaded bool `json:"loaded"`
			Pages  int  `json:"pages"`
		}
		json.Unmarshal(obj.Value, &st)
		if !st.Loaded {
			return "\nNote: --toc waits for Paged.js, and this page does not load it; printed as is.", nil
		}
		if st.Pages != last {
			last, stableSince = st.Pages, time.Now()
		} else if st.Pages > 0 && time.Since(stableSince) >= 500*time.Millisecond {
			return "", nil
		}
		if st.Pages == 0 && time.Since(started) > pagedJSWait {
			return "", Errorf("Drop --toc, or check 'console --errors' for why Paged.js did not run.", "The page loads Paged.js, but it laid out no pages in %s.", pagedJSWait)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}
