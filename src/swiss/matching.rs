//! Maximum-weight matching in a general graph: Edmonds' blossom algorithm
//! in the O(n³) primal-dual form of Galil (1986), as Joris van Rantwijk's
//! `mwmatching.py` (the implementation NetworkX's `max_weight_matching`
//! derives from) lays it out; this is a translation of that structure to
//! Rust over the wide integers of [`super::wide`].
//!
//! The graph is complete over `n` vertices; an edge of weight zero is
//! absent and never matched. The matching maximises the total weight (not
//! the number of pairs: the Dutch system's weights put the number of pairs
//! in their highest bits). Weights must be non-negative and leave three
//! bits of headroom in the integer (the duals reach twice the largest
//! weight, and slacks are compared as signed values).
//!
//! No crate on crates.io offered a weighted general matching over integers
//! wider than 64 bits (checked November 2026); the Dutch weights need
//! hundreds.

use std::ops::{Add, Shr, Sub};

use super::wide::Wide;

const NONE: usize = usize::MAX;

/// A complete graph's edge weights, and the matching that maximises them.
#[derive(Clone, Debug)]
pub struct Matcher<const N: usize> {
    n: usize,
    weights: Vec<Wide<N>>,
}

impl<const N: usize> Matcher<N> {
    /// A graph of `n` vertices and no edges.
    pub fn new(n: usize) -> Self {
        Matcher {
            n,
            weights: vec![Wide::ZERO; n * n],
        }
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the graph has no vertices.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Sets the weight of the edge between `a` and `b` (zero removes it).
    pub fn set(&mut self, a: usize, b: usize, weight: Wide<N>) {
        if a == b {
            return;
        }
        self.weights[a * self.n + b] = weight;
        self.weights[b * self.n + a] = weight;
    }

    /// The weight of the edge between `a` and `b`.
    pub fn get(&self, a: usize, b: usize) -> Wide<N> {
        self.weights[a * self.n + b]
    }

    /// A maximum-weight matching: each vertex's mate, or the vertex itself
    /// when it is unmatched.
    pub fn solve(&self) -> Vec<usize> {
        let mut edges = Vec::new();
        for i in 0..self.n {
            for j in i + 1..self.n {
                let w = self.get(i, j);
                if !w.is_zero() {
                    edges.push((i, j, w));
                }
            }
        }
        let mates = Blossom::new(self.n, edges).run();
        mates
            .iter()
            .enumerate()
            .map(|(v, &m)| if m == NONE { v } else { m })
            .collect()
    }
}

/// The algorithm's state (the names follow `mwmatching.py`).
struct Blossom<const N: usize> {
    nvertex: usize,
    edges: Vec<(usize, usize, Wide<N>)>,
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<Wide<N>>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

impl<const N: usize> Blossom<N> {
    fn new(nvertex: usize, edges: Vec<(usize, usize, Wide<N>)>) -> Self {
        let maxweight = edges.iter().map(|e| e.2).max().unwrap_or(Wide::ZERO);
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); nvertex];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut dualvar = vec![maxweight; nvertex];
        dualvar.extend(std::iter::repeat_n(Wide::ZERO, nvertex));
        let nedge = edges.len();
        Blossom {
            nvertex,
            edges,
            endpoint,
            neighbend,
            mate: vec![NONE; nvertex],
            label: vec![0; 2 * nvertex],
            labelend: vec![NONE; 2 * nvertex],
            inblossom: (0..nvertex).collect(),
            blossomparent: vec![NONE; 2 * nvertex],
            blossomchilds: vec![Vec::new(); 2 * nvertex],
            blossombase: (0..nvertex)
                .chain(std::iter::repeat_n(NONE, nvertex))
                .collect(),
            blossomendps: vec![Vec::new(); 2 * nvertex],
            bestedge: vec![NONE; 2 * nvertex],
            blossombestedges: vec![None; 2 * nvertex],
            unusedblossoms: (nvertex..2 * nvertex).collect(),
            dualvar,
            allowedge: vec![false; nedge],
            queue: Vec::new(),
        }
    }

    fn slack(&self, k: usize) -> Wide<N> {
        let (i, j, w) = self.edges[k];
        self.dualvar[i].add(self.dualvar[j]).sub(w.add(w))
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.nvertex {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.leaves(t, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else if t == 2 {
            let base = self.blossombase[b];
            let m = self.mate[base];
            self.assign_label(self.endpoint[m], 1, m ^ 1);
        }
    }

    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("a free blossom slot");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = Wide::ZERO;
        for v in self.leaves_of(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.nvertex];
        for &bv in &path {
            let nblists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                Some(list) => vec![list],
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .map(|v| self.neighbend[v].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for nblist in nblists {
                for k in nblist {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        self.bestedge[b] = NONE;
        for &k in &best {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.blossombestedges[b] = Some(best);
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.nvertex {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s].is_zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let len = childs.len() as isize;
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("the entry child") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                let q = endps[at(j - endptrick as isize)] ^ endptrick ^ 1;
                self.label[self.endpoint[p ^ 1]] = 0;
                self.label[self.endpoint[q]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[endps[at(j - endptrick as isize)] / 2] = true;
                j += jstep;
                p = endps[at(j - endptrick as isize)] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[at(j)];
            self.label[self.endpoint[p ^ 1]] = 2;
            self.label[bv] = 2;
            self.labelend[self.endpoint[p ^ 1]] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let mut found = NONE;
                for v in self.leaves_of(bv) {
                    if self.label[v] != 0 {
                        found = v;
                        break;
                    }
                }
                if found != NONE {
                    let v = found;
                    self.label[v] = 0;
                    let m = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[m]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.nvertex {
            self.augment_blossom(t, v);
        }
        let childs = self.blossomchilds[b].clone();
        let endps = self.blossomendps[b].clone();
        let len = childs.len() as isize;
        let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
        let i = childs.iter().position(|&c| c == t).expect("the child") as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = childs[at(j)];
            let p = endps[at(j - endptrick as isize)] ^ endptrick;
            if t >= self.nvertex {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = childs[at(j)];
            if t >= self.nvertex {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        let i = i as usize;
        let mut rotated = childs[i..].to_vec();
        rotated.extend_from_slice(&childs[..i]);
        let mut rotated_endps = endps[i..].to_vec();
        rotated_endps.extend_from_slice(&endps[..i]);
        self.blossombase[b] = self.blossombase[rotated[0]];
        self.blossomchilds[b] = rotated;
        self.blossomendps[b] = rotated_endps;
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.nvertex {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.nvertex {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn run(mut self) -> Vec<usize> {
        let nvertex = self.nvertex;
        for _ in 0..nvertex {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in nvertex..2 * nvertex {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..nvertex {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = (!augmented).then(|| self.queue.pop()).flatten() {
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = Wide::ZERO;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= Wide::ZERO {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path: change the duals.
                let mut deltatype = 1;
                let mut delta = *self.dualvar[..nvertex].iter().min().expect("a vertex");
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                for v in 0..nvertex {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * nvertex {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let d = self.slack(self.bestedge[b]).shr(1);
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in nvertex..2 * nvertex {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && self.dualvar[b] < delta
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..nvertex {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v].sub(delta),
                        2 => self.dualvar[v] = self.dualvar[v].add(delta),
                        _ => {}
                    }
                }
                for b in nvertex..2 * nvertex {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b].add(delta),
                            2 => self.dualvar[b] = self.dualvar[b].sub(delta),
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, mut j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            std::mem::swap(&mut i, &mut j);
                        }
                        let _ = j;
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _, _) = self.edges[deltaedge];
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in nvertex..2 * nvertex {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b].is_zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
        (0..nvertex)
            .map(|v| {
                let m = self.mate[v];
                if m == NONE { NONE } else { self.endpoint[m] }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ops::Shl;

    type W = Wide<2>;

    fn solve(n: usize, edges: &[(usize, usize, u64)]) -> Vec<usize> {
        let mut m = Matcher::<2>::new(n);
        for &(a, b, w) in edges {
            m.set(a, b, W::from_u64(w));
        }
        m.solve()
    }

    /// The total weight of a matching.
    fn total(n: usize, edges: &[(usize, usize, u64)], mates: &[usize]) -> u64 {
        let mut sum = 0;
        for &(a, b, w) in edges {
            if mates[a] == b && mates[b] == a && a != b {
                sum += w;
            }
        }
        let _ = n;
        sum
    }

    /// The best total by trying every matching (small graphs only).
    fn brute(n: usize, edges: &[(usize, usize, u64)]) -> u64 {
        let mut w = vec![vec![0u64; n]; n];
        for &(a, b, x) in edges {
            w[a][b] = x;
            w[b][a] = x;
        }
        fn go(free: &mut Vec<bool>, w: &[Vec<u64>]) -> u64 {
            let Some(first) = free.iter().position(|&f| f) else {
                return 0;
            };
            free[first] = false;
            let mut best = go(free, w);
            for other in first + 1..free.len() {
                if free[other] && w[first][other] > 0 {
                    free[other] = false;
                    best = best.max(w[first][other] + go(free, w));
                    free[other] = true;
                }
            }
            free[first] = true;
            best
        }
        go(&mut vec![true; n], &w)
    }

    #[test]
    fn the_mwmatching_test_cases() {
        // From mwmatching.py's own tests.
        assert_eq!(solve(2, &[(0, 1, 1)]), vec![1, 0]);
        assert_eq!(solve(4, &[(1, 2, 10), (2, 3, 11)]), vec![0, 1, 3, 2]);
        assert_eq!(
            solve(5, &[(1, 2, 5), (2, 3, 11), (3, 4, 5)]),
            vec![0, 1, 3, 2, 4]
        );
        // Blossom, then augment through it.
        assert_eq!(
            solve(5, &[(1, 2, 8), (1, 3, 9), (2, 3, 10), (3, 4, 7)]),
            vec![0, 2, 1, 4, 3]
        );
        // S-blossom relabeled as T and expanded.
        assert_eq!(
            solve(
                9,
                &[
                    (1, 2, 23),
                    (1, 5, 22),
                    (1, 6, 15),
                    (2, 3, 25),
                    (3, 4, 22),
                    (4, 5, 25),
                    (4, 8, 14),
                    (5, 7, 13)
                ]
            ),
            vec![0, 6, 3, 2, 8, 7, 1, 5, 4]
        );
        // Nested S-blossom, relabeled as T and expanded.
        assert_eq!(
            solve(
                9,
                &[
                    (1, 2, 19),
                    (1, 3, 20),
                    (1, 8, 8),
                    (2, 3, 25),
                    (2, 4, 18),
                    (3, 5, 18),
                    (4, 5, 13),
                    (4, 7, 7),
                    (5, 6, 7)
                ]
            ),
            vec![0, 8, 3, 2, 7, 6, 5, 4, 1]
        );
        // Nasty cases with blossoms expanded recursively.
        assert_eq!(
            solve(
                11,
                &[
                    (1, 2, 45),
                    (1, 5, 45),
                    (2, 3, 50),
                    (3, 4, 45),
                    (4, 5, 50),
                    (1, 6, 30),
                    (3, 9, 35),
                    (4, 8, 35),
                    (5, 7, 26),
                    (9, 10, 5)
                ]
            ),
            vec![0, 6, 3, 2, 8, 7, 1, 5, 4, 10, 9]
        );
        assert_eq!(
            solve(
                11,
                &[
                    (1, 2, 40),
                    (1, 3, 40),
                    (2, 3, 60),
                    (2, 4, 55),
                    (3, 5, 55),
                    (4, 5, 50),
                    (1, 8, 15),
                    (5, 7, 30),
                    (7, 6, 10),
                    (8, 10, 10),
                    (4, 9, 30)
                ]
            ),
            vec![0, 2, 1, 5, 9, 3, 7, 6, 10, 4, 8]
        );
    }

    #[test]
    fn random_graphs_reach_the_brute_force_optimum() {
        let mut state = 7u64;
        for round in 0..400 {
            let n = 2 + round % 9;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    state = crate::splitmix::splitmix64(state);
                    if !state.is_multiple_of(3) {
                        edges.push((a, b, 1 + (state >> 32) % 20));
                    }
                }
            }
            let mates = solve(n, &edges);
            for (v, &m) in mates.iter().enumerate() {
                assert_eq!(mates[m], v, "the matching is symmetric");
            }
            assert_eq!(
                total(n, &edges, &mates),
                brute(n, &edges),
                "graph {round}: {edges:?}"
            );
        }
    }

    #[test]
    fn weights_above_64_bits_are_compared_whole() {
        let mut m = Matcher::<4>::new(4);
        let big = Wide::<4>::from_u64(1).shl(200);
        m.set(0, 1, big);
        m.set(2, 3, big);
        m.set(1, 2, big.add(big).sub_u64(2));
        m.set(0, 3, Wide::from_u64(1));
        assert_eq!(m.solve(), vec![1, 0, 3, 2]);
    }
}
