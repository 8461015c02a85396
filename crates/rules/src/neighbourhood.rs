//! Every cell's 8-neighbourhood (the cell included), for every board width
//! up to 19, in the 1-, 2- and 6-word layouts: built at compile time, so a
//! step looks its neighbourhood up (one load) instead of shifting a board
//! eight ways. Rows past the board's last are cut off by the caller.

/// Widths the tables hold: 0 to 19 (those below 3 stay empty).
pub(crate) const WIDTHS: usize = 20;

/// Neighbourhoods in the 1-word layout (boards of up to 64 cells).
pub(crate) static NEAR_1: [[[u64; 1]; 64]; WIDTHS] = table::<1, 64>();
/// Neighbourhoods in the 2-word layout (boards of up to 128 cells).
pub(crate) static NEAR_2: [[[u64; 2]; 128]; WIDTHS] = table::<2, 128>();
/// Neighbourhoods in the 6-word layout (boards of up to 384 cells).
pub(crate) static NEAR_6: [[[u64; 6]; 384]; WIDTHS] = table::<6, 384>();

const fn table<const N: usize, const CELLS: usize>() -> [[[u64; N]; CELLS]; WIDTHS] {
    let mut t = [[[0u64; N]; CELLS]; WIDTHS];
    let mut w = 3;
    while w < WIDTHS {
        let mut i = 0;
        while i < CELLS {
            let (file, rank) = ((i % w) as i64, (i / w) as i64);
            let mut dr = -1;
            while dr <= 1 {
                let mut df = -1;
                while df <= 1 {
                    let (f, r) = (file + df, rank + dr);
                    if f >= 0 && f < w as i64 && r >= 0 {
                        let j = (r * w as i64 + f) as usize;
                        if j < CELLS {
                            t[w][i][j / 64] |= 1 << (j % 64);
                        }
                    }
                    df += 1;
                }
                dr += 1;
            }
            i += 1;
        }
        w += 1;
    }
    t
}
