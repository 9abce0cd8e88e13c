//! Who a client is to the referee: [`ClientId`], by the port it is on, and
//! [`ByClient`], a value per client indexed by it (shakmaty's `ByColor` is
//! the model), so per-client data is never an array indexed by a guess.

use std::fmt;
use std::ops::{Index, IndexMut};

/// One of the two clients, by the port it is on (A is White in game 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum ClientId {
    A,
    B,
}

impl ClientId {
    /// Both clients, A first.
    pub const BOTH: [ClientId; 2] = [ClientId::A, ClientId::B];

    /// The other client.
    pub fn other(self) -> ClientId {
        match self {
            ClientId::A => ClientId::B,
            ClientId::B => ClientId::A,
        }
    }

    /// 0 for A, 1 for B (for arrays shown in A, B order).
    pub fn index(self) -> usize {
        self as usize
    }

    /// `"A"` or `"B"`.
    pub fn letter(self) -> &'static str {
        match self {
            ClientId::A => "A",
            ClientId::B => "B",
        }
    }
}

impl fmt::Display for ClientId {
    /// The letter: `A` or `B`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

/// A value for each client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct ByClient<T> {
    pub a: T,
    pub b: T,
}

impl<T> ByClient<T> {
    /// `a` for client A, `b` for client B.
    pub const fn new(a: T, b: T) -> ByClient<T> {
        ByClient { a, b }
    }

    /// The value of each client from a function of its id.
    pub fn new_with(mut f: impl FnMut(ClientId) -> T) -> ByClient<T> {
        ByClient {
            a: f(ClientId::A),
            b: f(ClientId::B),
        }
    }

    /// Both values, A first, with their ids.
    pub fn iter(&self) -> impl Iterator<Item = (ClientId, &T)> {
        [(ClientId::A, &self.a), (ClientId::B, &self.b)].into_iter()
    }

    /// Both values, mutable, A first.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        [&mut self.a, &mut self.b].into_iter()
    }

    /// Both values, A first.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        [&self.a, &self.b].into_iter()
    }

    /// Each value through `f`.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByClient<U> {
        ByClient {
            a: f(self.a),
            b: f(self.b),
        }
    }

    /// A reference to each value.
    pub fn as_ref(&self) -> ByClient<&T> {
        ByClient {
            a: &self.a,
            b: &self.b,
        }
    }

    /// The values as an array, A first.
    pub fn into_array(self) -> [T; 2] {
        [self.a, self.b]
    }
}

impl<T> From<[T; 2]> for ByClient<T> {
    /// A first.
    fn from([a, b]: [T; 2]) -> ByClient<T> {
        ByClient { a, b }
    }
}

impl<T> Index<ClientId> for ByClient<T> {
    type Output = T;
    fn index(&self, id: ClientId) -> &T {
        match id {
            ClientId::A => &self.a,
            ClientId::B => &self.b,
        }
    }
}

impl<T> IndexMut<ClientId> for ByClient<T> {
    fn index_mut(&mut self, id: ClientId) -> &mut T {
        match id {
            ClientId::A => &mut self.a,
            ClientId::B => &mut self.b,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexing_iterating_and_mapping_follow_the_ids() {
        let mut by = ByClient::new_with(|id| id.letter().to_string());
        assert_eq!(by[ClientId::A], "A");
        by[ClientId::B].push('!');
        assert_eq!(by.b, "B!");
        let ids: Vec<(ClientId, &String)> = by.iter().collect();
        assert_eq!(ids[1].0, ClientId::B);
        assert_eq!(by.clone().map(|s| s.len()), ByClient::new(1, 2));
        for v in by.values_mut() {
            v.clear();
        }
        assert_eq!(by.into_array(), [String::new(), String::new()]);
        assert_eq!(ClientId::A.other(), ClientId::B);
        assert_eq!(ClientId::B.index(), 1);
    }
}
