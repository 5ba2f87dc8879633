// app.rs: test program for the symbolizer (std only). Built with
// `-C debuginfo=2 -C opt-level=2 -C force-frame-pointers=yes`, once with
// DWARF 4 (rustc's default) and once with `-C dwarf-version=5`. Generics,
// closures, trait objects and channels give inline chains across std.

use std::collections::HashMap;
use std::sync::mpsc;
use std::thread;

trait Shape {
    fn area(&self) -> f64;
}

struct Rect {
    w: f64,
    h: f64,
}

struct Circle {
    r: f64,
}

impl Shape for Rect {
    fn area(&self) -> f64 {
        self.w * self.h
    }
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        3.14159 * self.r * self.r
    }
}

#[inline(always)]
fn mix(x: u64) -> u64 {
    let x = x ^ (x >> 31);
    x.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

#[inline]
fn fold<T: Copy + Into<u64>>(v: &[T]) -> u64 {
    v.iter().fold(0u64, |acc, &x| mix(acc ^ x.into()))
}

#[inline(never)]
fn burn(n: u64) -> u64 {
    let mut acc = 0u64;
    for i in 0..n {
        acc = acc.wrapping_add(mix(i));
    }
    acc
}

#[inline(never)]
fn count_words(text: &str) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for w in text.split_whitespace() {
        *m.entry(w.to_lowercase()).or_insert(0) += 1;
    }
    m
}

#[inline(never)]
fn shapes(n: usize) -> f64 {
    let mut v: Vec<Box<dyn Shape>> = Vec::new();
    for i in 0..n {
        if i % 2 == 0 {
            v.push(Box::new(Rect { w: i as f64, h: 2.0 }));
        } else {
            v.push(Box::new(Circle { r: i as f64 }));
        }
    }
    v.iter().map(|s| s.area()).sum()
}

fn pipeline(workers: u64) -> u64 {
    let (tx, rx) = mpsc::channel::<u64>();
    let mut handles = Vec::new();
    for id in 0..workers {
        let tx = tx.clone();
        handles.push(thread::spawn(move || {
            let v: Vec<u32> = (0..64).map(|x| x * id as u32).collect();
            tx.send(burn(1000 + id) ^ fold(&v)).unwrap();
        }));
    }
    drop(tx);
    let total = rx.iter().fold(0u64, |a, b| a ^ b);
    for h in handles {
        h.join().unwrap();
    }
    total
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    let words = count_words("the quick brown fox jumps over the lazy dog The End");
    let mut keys: Vec<_> = words.iter().collect();
    keys.sort();
    let s = shapes(n as usize);
    let p = pipeline(n);
    println!("{} {} {:?}", p, s, keys.first());
}
