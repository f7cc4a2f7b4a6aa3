package peer

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Percentile sorts ds in place and returns the p-th (0..1) of it, by
// nearest rank.
func Percentile(ds []time.Duration, p float64) time.Duration {
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(p*float64(len(ds))))]
}

// Quantile is Percentile for plain numbers.
func Quantile(xs []float64, p float64) float64 {
	slices.Sort(xs)
	return xs[min(len(xs)-1, int(p*float64(len(xs))))]
}

// MS formats a duration in milliseconds.
func MS(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

// PrintTable prints rows as a Markdown table, the first row as the header,
// the first column left-aligned and the others right-aligned.
func PrintTable(rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for i, r := range rows {
		for j, c := range r {
			pad := strings.Repeat(" ", widths[j]-len([]rune(c)))
			if j == 0 {
				fmt.Print("| " + c + pad + " ")
			} else {
				fmt.Print("| " + pad + c + " ")
			}
		}
		fmt.Println("|")
		if i == 0 {
			for j, w := range widths {
				if j == 0 {
					fmt.Print("|" + strings.Repeat("-", w+2))
				} else {
					fmt.Print("|" + strings.Repeat("-", w+1) + ":")
				}
			}
			fmt.Println("|")
		}
	}
}
