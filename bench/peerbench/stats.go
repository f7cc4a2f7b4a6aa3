package main

// Copies of bench/main.go's helpers: that file is package main of another
// command, so it cannot be imported.

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// percentile sorts ds in place and returns the p-th (0..1) of it, by
// nearest rank.
func percentile(ds []time.Duration, p float64) time.Duration {
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(p*float64(len(ds))))]
}

// quantile is percentile for plain numbers.
func quantile(xs []float64, p float64) float64 {
	slices.Sort(xs)
	return xs[min(len(xs)-1, int(p*float64(len(xs))))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

// printTable prints rows as a Markdown table, the first row as the header,
// the first column left-aligned and the others right-aligned.
func printTable(rows [][]string) {
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
