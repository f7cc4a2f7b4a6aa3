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

func TestItemsSince(t *testing.T) {
	b := New[int](3)
	got, next := b.ItemsSince(0)
	if len(got) != 0 || next != 0 {
		t.Fatalf("empty: %v %d", got, next)
	}
	b.Push(1)
	b.Push(2)
	got, next = b.ItemsSince(0)
	if !reflect.DeepEqual(got, []int{1, 2}) || next != 2 {
		t.Fatalf("got %v %d", got, next)
	}
	for i := 3; i <= 6; i++ {
		b.Push(i)
	}
	// 3 and beyond were pushed since; only 4, 5, 6 are still held.
	if got, next = b.ItemsSince(next); !reflect.DeepEqual(got, []int{4, 5, 6}) || next != 6 {
		t.Fatalf("after wrap: %v %d", got, next)
	}
	b.Clear()
	b.Push(7)
	if got, _ = b.ItemsSince(next); !reflect.DeepEqual(got, []int{7}) {
		t.Fatalf("after clear: %v", got)
	}
}

func BenchmarkPush(b *testing.B) {
	r := New[string](50000)
	for i := 0; i < b.N; i++ {
		r.Push("GET http://example.com/ → 200")
	}
}
