package ring

import (
	"reflect"
	"testing"
)

func TestBufferEvictsOldest(t *testing.T) {
	b := New[int](3)
	for i := 1; i <= 5; i++ {
		b.Push(i)
	}
	if got, want := b.Items(), []int{3, 4, 5}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Items() = %v, want %v", got, want)
	}
	b.Clear()
	if b.Len() != 0 {
		t.Fatalf("Len after Clear = %d", b.Len())
	}
	b.Push(9)
	if got := b.Items(); !reflect.DeepEqual(got, []int{9}) {
		t.Fatalf("after Clear+Push: %v", got)
	}
}

func BenchmarkPush(b *testing.B) {
	r := New[string](50000)
	for i := 0; i < b.N; i++ {
		r.Push("GET http://example.com/ → 200")
	}
}
