"""Each technique on a candidate grid where it is the next step, with its exact eliminations.

The grids are states the engine reached on the project's own generated corpora
(``corpora/data/gen9-*.txt``; file, line and step are noted at each case). The
puzzle is kept, so each step is also checked against the puzzle's solution.
"""

from __future__ import annotations

import pytest

import solvers
from solvers.grid import Grid
from solvers.human import CandidateState, compact, propagate
from solvers.human.table import BY_NAME, GROUPS, TECHNIQUES
from solvers.human.techniques import singles
from tests.human_fixtures import candidate_grid as _grid

# corpora/data/gen9-minimal.txt line 11, step 19 of the engine's path
X_CHAIN_CASE = (
    "......39....4.9.82..6...5..587....4...9......4..7...65.28.16....7134....3........",
    (
        "1278 14 24 1268 2678 5 3 9 167 "
        "17 35 35 4 67 9 167 8 2 "
        "1278 9 6 128 2378 12378 5 17 4 "
        "5 8 7 1269 2369 123 129 4 19 "
        "12 6 9 128 5 4 1278 1237 1378 "
        "4 13 23 7 289 128 289 6 5 "
        "9 2 8 5 1 6 4 37 37 "
        "6 7 1 3 4 28 289 5 89 "
        "3 45 45 289 2789 278 1268 12 168"
    ),
    "r6c6<>2",
)

# technique: (puzzle, candidate grid before the step, the step in compact notation)
CASES = {
    # corpora/data/gen9-hard.txt line 5, step 15 of the engine's path
    "pointing": (
        "....2.3.....78..5.56...4....1.5..........37.6..9.......4..7...8....42.3.736...4..",
        (
            "1489 789 1478 169 2 5 3 14678 149 "
            "1249 29 3 7 8 169 1269 5 1249 "
            "5 6 1278 19 3 4 1289 1278 129 "
            "6 1 2478 5 9 78 28 248 3 "
            "248 258 2458 248 1 3 7 9 6 "
            "3 278 9 248 6 78 128 1248 5 "
            "129 4 125 3 7 169 12569 126 8 "
            "189 589 158 1689 4 2 1569 3 7 "
            "7 3 6 189 5 189 4 12 129"
        ),
        "r1c8<>4",
    ),
    # corpora/data/gen9-hard.txt line 15, step 28 of the engine's path
    "claiming": (
        ".2..5.47......4...3....8.9....3.921.7......8...5.6.9.................5.18635.....",
        (
            "69 2 18 169 5 36 4 7 368 "
            "69 17 178 1269 1239 4 1368 5 2368 "
            "3 5 4 7 12 8 16 9 26 "
            "4 8 6 3 7 9 2 1 5 "
            "7 9 2 14 14 5 36 8 36 "
            "1 3 5 8 6 2 9 4 7 "
            "5 147 179 2469 2349 367 368 36 34689 "
            "2 47 79 469 8 367 5 36 1 "
            "8 6 3 5 49 1 7 2 49"
        ),
        "r1c9<>6 r2c7<>6 r2c9<>6",
    ),
    # corpora/data/gen9-hard.txt line 169, step 25 of the engine's path
    "locked_pair": (
        "..4.....779...8.5..5..34.....62...7.5...6..49......2.........8.9..6.53..2..8....6",
        (
            "18 2 4 59 59 6 18 3 7 "
            "7 9 3 1 2 8 6 5 4 "
            "6 5 18 7 3 4 189 129 128 "
            "148 138 6 2 458 9 158 7 1358 "
            "5 178 2 3 6 17 18 4 9 "
            "148 1378 9 45 458 17 2 6 1358 "
            "3 6 157 49 1479 2 14579 8 15 "
            "9 148 178 6 147 5 3 12 12 "
            "2 14 157 8 1479 3 14579 19 6"
        ),
        "r7c7<>1 r7c9<>1 r8c2<>1 r8c3<>1 r8c5<>1 r9c7<>1 r9c8<>1",
    ),
    # corpora/data/gen9-hard.txt line 53, step 20 of the engine's path
    "naked_pair": (
        "....65..33...1.769.1.7..........1.5..3..4.8....5..2....8.2...1......45......86.4.",
        (
            "478 47 478 9 6 5 1 2 3 "
            "3 5 2 4 1 8 7 6 9 "
            "69 1 69 7 2 3 4 8 5 "
            "246789 24679 46789 68 379 1 2369 5 2467 "
            "12679 3 1679 5 4 79 8 79 1267 "
            "146789 4679 5 68 379 2 369 379 1467 "
            "479 8 3479 2 5 79 369 1 67 "
            "12679 2679 13679 13 79 4 5 379 8 "
            "5 79 1379 13 8 6 239 4 27"
        ),
        "r5c1<>7,9 r5c3<>7,9 r5c9<>7",
    ),
    # corpora/data/gen9-hard.txt line 16, step 30 of the engine's path
    "x_wing": (
        "76.....4.8...7.5..3..5.6..2..92...7..564..1.......5....3.....6...4.....9.......18",
        (
            "7 6 5 38 238 2389 89 4 1 "
            "8 49 2 19 7 149 5 3 6 "
            "3 49 1 5 48 6 7 89 2 "
            "4 8 9 2 13 13 6 7 5 "
            "2 5 6 4 89 7 1 89 3 "
            "1 7 3 68 689 5 89 2 4 "
            "59 3 8 19 1245 1249 24 6 7 "
            "6 1 4 7 238 238 23 5 9 "
            "59 2 7 36 3456 349 34 1 8"
        ),
        "r1c5<>8 r6c5<>8 r8c5<>8",
    ),
    # corpora/data/gen9-unfair.txt line 70, step 12 of the engine's path
    "hidden_pair": (
        "9..3..........86.17......39.9.56..1.45..1..9......2..7..6.........475....4.....5.",
        (
            "9 168 148 3 24 1467 248 2478 5 "
            "23 23 45 79 459 8 6 47 1 "
            "7 168 1458 126 245 146 248 3 9 "
            "238 9 2378 5 6 347 2348 1 2348 "
            "4 5 2378 78 1 37 238 9 6 "
            "6 138 138 89 3489 2 5 48 7 "
            "5 7 6 128 238 139 123489 248 2348 "
            "1238 238 2389 4 7 5 12389 6 238 "
            "1238 4 2389 1268 238 1369 7 5 238"
        ),
        "r7c7<>2,3,4,8 r8c7<>2,3,8",
    ),
    # corpora/data/gen9-extreme.txt line 130, step 15 of the engine's path
    "locked_triple": (
        "32...1..5..83...7....5.......3.9......5...61..6.....9..52..8..76....4...9..27...8",
        (
            "3 2 69 7 468 1 489 48 5 "
            "5 14 8 3 46 29 1249 7 12469 "
            "147 147 69 5 468 29 123489 2348 123469 "
            "12478 147 3 1468 9 567 24578 2458 24 "
            "478 9 5 48 2 37 6 1 34 "
            "12478 6 14 148 15 357 234578 9 234 "
            "14 5 2 169 13 8 1349 346 7 "
            "6 8 7 19 135 4 12359 235 1239 "
            "9 3 14 2 7 56 145 456 8"
        ),
        "r2c9<>2,4 r3c9<>2,3,4 r4c7<>2,4 r4c8<>2,4 r6c7<>2,3,4 r8c9<>2,3",
    ),
    # corpora/data/gen9-extreme.txt line 63, step 12 of the engine's path
    "naked_triple": (
        "..2..71..1...6..4..7.8...2.638........9....3.........4....3...6..45....1..1..479.",
        (
            "4589 4589 2 349 459 7 1 6 3589 "
            "1 589 3 29 6 259 589 4 7 "
            "459 7 6 8 1459 1359 359 2 359 "
            "6 3 8 12479 12459 1259 259 17 259 "
            "247 124 9 1267 1258 12568 2568 3 258 "
            "27 12 5 123679 1289 123689 2689 17 4 "
            "289 289 7 129 3 1289 4 5 6 "
            "239 269 4 5 7 269 23 8 1 "
            "2358 2568 1 26 28 4 7 9 23"
        ),
        "r6c4<>1,2,7 r6c5<>1,2 r6c6<>1,2 r6c7<>2",
    ),
    # corpora/data/gen9-hard.txt line 78, step 19 of the engine's path
    "swordfish": (
        "3.952.7.8.....6.9......3..21.4.87.......4......2.....9....9.12...7...5.4.....8..7",
        (
            "3 16 9 5 2 4 7 16 8 "
            "2457 12457 15 8 17 6 34 9 135 "
            "45678 145678 68 9 17 3 46 1456 2 "
            "1 9 4 236 8 7 236 356 356 "
            "5678 35678 368 236 4 9 2368 1367 136 "
            "678 3678 2 36 5 1 3468 3467 9 "
            "468 3468 368 7 9 5 1 2 36 "
            "9 36 7 1 36 2 5 8 4 "
            "25 125 15 4 36 8 9 36 7"
        ),
        "r3c2<>6 r3c8<>6 r4c8<>6 r5c2<>6 r5c8<>6 r6c2<>6 r6c8<>6 r7c2<>6",
    ),
    # corpora/data/gen9-hard.txt line 26, step 19 of the engine's path
    "hidden_triple": (
        "......8..6938.7...5..6....1.56...94............1.....6..59..43.4....31...8.2....9",
        (
            "127 1247 24 345 2359 2459 8 6 37 "
            "6 9 3 8 1 7 5 2 4 "
            "5 247 8 6 23 24 37 9 1 "
            "278 5 6 1 2378 28 9 4 378 "
            "2789 2347 24 347 236789 24689 237 1 5 "
            "2789 2347 1 3457 235789 24589 237 78 6 "
            "12 126 5 9 678 68 4 3 278 "
            "4 26 9 57 5678 3 1 78 278 "
            "3 8 7 2 4 1 6 5 9"
        ),
        "r5c1<>2,7 r5c5<>2,3,7 r5c6<>2,4",
    ),
    # corpora/data/gen9-hard.txt line 6, step 38 of the engine's path
    "xy_wing": (
        "..42...1.59....4......437....3.89..77.5..1..........6.....5.27.9....85.11....2..8",
        (
            "3 7 4 2 9 56 8 1 56 "
            "5 9 6 8 1 7 4 2 3 "
            "2 8 1 56 4 3 7 9 56 "
            "46 2 3 46 8 9 1 5 7 "
            "7 46 5 3 26 1 9 8 24 "
            "8 1 9 457 27 45 3 6 24 "
            "46 3 8 1 5 46 2 7 9 "
            "9 46 2 47 67 8 5 3 1 "
            "1 5 7 9 3 2 6 4 8"
        ),
        "r1c6<>5 r6c4<>5",
    ),
    # corpora/data/gen9-hard.txt line 14, step 27 of the engine's path
    "xyz_wing": (
        "92..8.......32.7.......6..8..1.....7...1...9224.....5......8.....97...4.5.8.9..76",
        (
            "9 2 67 5 8 17 13 136 4 "
            "168 58 456 3 2 14 7 16 9 "
            "137 13 347 9 147 6 5 2 8 "
            "36 9 1 2 346 5 346 8 7 "
            "3678 58 3567 1 3467 347 346 9 2 "
            "2 4 367 8 367 9 136 5 13 "
            "4 7 2 6 135 8 9 13 135 "
            "13 6 9 7 135 2 8 4 135 "
            "5 13 8 4 9 13 2 7 6"
        ),
        "r5c3<>6",
    ),
    # corpora/data/gen9-hard.txt line 10, step 28 of the engine's path
    "unique_rectangle": (
        "...83..........4.1....91..847..6..9.6..1.....9.8.5...223.5.7.....4...9...5.......",
        (
            "5 46 1 8 3 24 267 267 9 "
            "8 9 27 6 27 5 4 3 1 "
            "3 46 27 47 9 1 256 256 8 "
            "4 7 35 2 6 8 1 9 35 "
            "6 2 35 1 47 9 357 8 3457 "
            "9 1 8 47 5 3 67 467 2 "
            "2 3 9 5 14 7 8 14 6 "
            "17 8 4 3 12 6 9 1257 57 "
            "17 5 6 9 8 24 237 1247 347"
        ),
        "r5c9<>3,5",
    ),
    # corpora/data/gen9-unfair.txt line 29, step 32 of the engine's path
    "naked_quad": (
        ".5......264..3.....9..76..5.8..........74.68........4..6.8.37........1....3.518..",
        (
            "17 5 17 9 8 4 3 6 2 "
            "6 4 2 1 3 5 9 7 8 "
            "3 9 8 2 7 6 4 1 5 "
            "247 8 4679 35 16 29 25 39 1379 "
            "25 13 59 7 4 29 6 8 13 "
            "27 13 679 35 16 8 25 4 79 "
            "1459 6 145 8 2 3 7 59 49 "
            "8 2 45 46 9 7 1 35 346 "
            "49 7 3 46 5 1 8 2 469"
        ),
        "r4c1<>2 r4c3<>9 r4c9<>3,9",
    ),
    # corpora/data/gen9-unfair.txt line 40, step 38 of the engine's path
    "jellyfish": (
        "...1.376......2...37.5....1.2.8.13...13........7.......5...4.2...8.794..7.....6..",
        (
            "5 89 2 1 49 3 7 6 489 "
            "1 689 469 7 49 2 59 3459 3489 "
            "3 7 49 5 8 6 2 49 1 "
            "49 2 5 8 6 1 3 7 49 "
            "489 1 3 49 2 7 59 4589 6 "
            "4689 69 7 49 3 5 1 489 2 "
            "69 5 69 3 1 4 8 2 7 "
            "2 3 8 6 7 9 4 1 5 "
            "7 4 1 2 5 8 6 39 39"
        ),
        "r1c9<>9 r2c3<>9 r2c8<>9 r2c9<>9 r5c1<>9 r5c8<>9 r6c1<>9 r6c8<>9",
    ),
    # corpora/data/gen9-hard.txt line 27, step 47 of the engine's path
    "bug_plus_one": (
        "....5...95.....1..3..71...6..1..2......9...3....3...7.182.......4...8....9....2.7",
        (
            "8 1 6 24 5 3 7 24 9 "
            "5 7 9 8 24 6 1 24 3 "
            "3 2 4 7 1 9 8 5 6 "
            "49 3 1 46 7 2 5 69 8 "
            "2 6 7 9 8 5 4 3 1 "
            "49 5 8 3 46 1 69 7 2 "
            "1 8 2 5 69 7 3 69 4 "
            "7 4 3 26 269 8 69 1 5 "
            "6 9 5 1 3 4 2 8 7"
        ),
        "r8c5=6",
    ),
    # corpora/data/gen9-hard.txt line 36, step 39 of the engine's path
    "skyscraper": (
        ".61..4.......7.........26.9..5.8.1..2..6.385...3.......5.....4..37..9.....2...5.8",
        (
            "39 6 1 8 39 4 7 2 5 "
            "59 2 89 159 7 6 3 18 4 "
            "345 7 48 15 35 2 6 18 9 "
            "6 49 5 49 8 7 1 3 2 "
            "2 1 49 6 49 3 8 5 7 "
            "7 8 3 2 1 5 4 9 6 "
            "1 5 6 7 2 8 9 4 3 "
            "8 3 7 45 45 9 2 6 1 "
            "49 49 2 3 6 1 5 7 8"
        ),
        "r2c3<>9",
    ),
    # corpora/data/gen9-hard.txt line 24, step 35 of the engine's path
    "two_string_kite": (
        ".8.57......7.2..4...3............92..2...1....7.48..1.138............5..25...347.",
        (
            "469 8 2 5 7 469 1 36 369 "
            "569 1 7 3 2 69 8 4 569 "
            "4569 69 3 18 169 4689 2 56 7 "
            "38 4 1 6 35 7 9 2 58 "
            "38 2 56 9 35 1 7 568 4 "
            "69 7 569 4 8 2 3 1 56 "
            "1 3 8 7 4 5 6 9 2 "
            "7 69 4 2 169 689 5 38 138 "
            "2 5 69 18 69 3 4 7 18"
        ),
        "r3c5<>6",
    ),
    # corpora/data/gen9-hard.txt line 53, step 21 of the engine's path
    "simple_colouring": (
        "....65..33...1.769.1.7..........1.5..3..4.8....5..2....8.2...1......45......86.4.",
        (
            "478 47 478 9 6 5 1 2 3 "
            "3 5 2 4 1 8 7 6 9 "
            "69 1 69 7 2 3 4 8 5 "
            "246789 24679 46789 68 379 1 2369 5 2467 "
            "126 3 16 5 4 79 8 79 126 "
            "146789 4679 5 68 379 2 369 379 1467 "
            "479 8 3479 2 5 79 369 1 67 "
            "12679 2679 13679 13 79 4 5 379 8 "
            "5 79 1379 13 8 6 239 4 27"
        ),
        "r8c8<>7",
    ),
    # corpora/data/gen9-hard.txt line 11, step 29 of the engine's path
    "w_wing": (
        "....4..8...3..9.6.6.......9..5....4.....176....6....31...3...9.....8.1..589..4..2",
        (
            "79 579 27 6 4 1 257 8 3 "
            "18 1457 3 78 25 9 2457 6 57 "
            "6 457 2478 78 25 3 2457 1 9 "
            "18 17 5 2 3 6 9 4 78 "
            "39 39 48 45 1 7 6 2 58 "
            "247 247 6 45 9 8 57 3 1 "
            "24 246 1 3 7 5 8 9 46 "
            "347 3467 47 9 8 2 1 5 46 "
            "5 8 9 1 6 4 3 7 2"
        ),
        "r2c9<>7",
    ),
    "x_chain": X_CHAIN_CASE,
    # corpora/data/gen9-minimal.txt line 23, step 30 of the engine's path
    "xy_chain": (
        ".....43..92.3..8....7.....1.75......4.81.5..2.......4.....5.9....2.7.....6.8..1.7",
        (
            "8 5 1 269 29 4 3 7 69 "
            "9 2 6 3 1 7 8 5 4 "
            "3 4 7 5 89 689 2 69 1 "
            "2 7 5 49 3489 389 6 1 389 "
            "4 39 8 1 6 5 7 39 2 "
            "6 1 39 7 2389 2389 5 4 389 "
            "7 38 34 246 5 1 9 2368 36 "
            "1 389 2 69 7 369 4 368 5 "
            "5 6 349 8 2349 239 1 23 7"
        ),
        "r9c5<>2",
    ),
    # corpora/data/gen9-hard.txt line 53, step 21 of the engine's path
    "turbot_fish": (
        "....65..33...1.769.1.7..........1.5..3..4.8....5..2....8.2...1......45......86.4.",
        (
            "478 47 478 9 6 5 1 2 3 "
            "3 5 2 4 1 8 7 6 9 "
            "69 1 69 7 2 3 4 8 5 "
            "246789 24679 46789 68 379 1 2369 5 2467 "
            "126 3 16 5 4 79 8 79 126 "
            "146789 4679 5 68 379 2 369 379 1467 "
            "479 8 3479 2 5 79 369 1 67 "
            "12679 2679 13679 13 79 4 5 379 8 "
            "5 79 1379 13 8 6 239 4 27"
        ),
        "r8c8<>7",
    ),
    # corpora/data/gen9-unfair.txt line 4, step 24 of the engine's path (three links in
    # columns, Sukaku Explainer's 5.4, chosen over the shorter-found mixed chain, 5.5)
    "three_strong_links": (
        "41...69......1....98..27.......7..36......1..84.3.....1.....5...63....1..9......8",
        (
            "4 1 257 58 3 6 9 2578 257 "
            "36 37 2567 4589 1 49 2678 245678 257 "
            "9 8 56 45 2 7 3 456 1 "
            "2 5 19 49 7 18 48 3 6 "
            "36 37 679 26 45689 258 1 25789 24579 "
            "8 4 1679 3 569 125 27 2579 2579 "
            "1 2 8 67 469 49 5 679 3 "
            "57 6 3 27 589 258 47 1 479 "
            "57 9 4 1 56 3 267 267 8"
        ),
        "r7c8<>6 r9c5<>6",
    ),
    # corpora/data/gen9-hard.txt line 41, step 32 of the engine's path
    "grouped_turbot_fish": (
        ".7.1....3.49...65...16..........8.6...7..9.45.6....9..5..2.........4.8...1.....9.",
        (
            "6 7 5 1 9 24 24 8 3 "
            "23 4 9 78 378 237 6 5 1 "
            "238 238 1 6 5 234 247 27 9 "
            "9 5 23 4 12 8 123 6 7 "
            "128 28 7 3 6 9 12 4 5 "
            "1234 6 234 5 127 17 9 23 8 "
            "5 9 468 2 18 16 37 37 46 "
            "7 23 236 9 4 5 8 1 26 "
            "24 1 2468 78 378 367 5 9 246"
        ),
        "r6c1<>2",
    ),
    # corpora/data/gen9-hard.txt line 11, step 29 of the engine's path
    "wxyz_wing": (
        "....4..8...3..9.6.6.......9..5....4.....176....6....31...3...9.....8.1..589..4..2",
        (
            "79 579 27 6 4 1 257 8 3 "
            "18 1457 3 78 25 9 2457 6 57 "
            "6 457 2478 78 25 3 2457 1 9 "
            "18 17 5 2 3 6 9 4 78 "
            "39 39 48 45 1 7 6 2 58 "
            "247 247 6 45 9 8 57 3 1 "
            "24 246 1 3 7 5 8 9 46 "
            "347 3467 47 9 8 2 1 5 46 "
            "5 8 9 1 6 4 3 7 2"
        ),
        "r8c2<>7",
    ),
    # corpora/data/gen9-unfair.txt line 5, step 18 of the engine's path
    "grouped_three_strong_links": (
        ".13.8.9.4..2.497.........3.....5.86......7..18..9....7..9.7.....5...3........647.",
        (
            "67 1 3 67 8 25 9 25 4 "
            "56 68 2 3 4 9 7 1 568 "
            "459 79 45678 67 12 125 26 3 2568 "
            "12379 79 17 12 5 4 8 6 23 "
            "23456 2346 456 8 36 7 235 9 1 "
            "8 236 156 9 36 12 235 4 7 "
            "1246 2346 9 1245 7 8 1236 25 2356 "
            "12467 5 1467 124 129 3 126 8 269 "
            "123 238 18 125 129 6 4 7 2359"
        ),
        "r3c7<>2",
    ),
    # corpora/data/gen9-unfair.txt line 16, step 38 of the engine's path
    "vwxyz_wing": (
        ".3.8...92..............271..2..54........62.479......6..9...84...61..9.....2....3",
        (
            "14 3 57 8 16 57 46 9 2 "
            "14 78 2 56 1679 1579 346 36 58 "
            "9 6 58 4 3 2 7 1 58 "
            "6 2 18 7 5 4 13 38 9 "
            "5 18 3 9 18 6 2 7 4 "
            "7 9 4 3 2 18 15 58 6 "
            "2 57 9 56 67 3 8 4 1 "
            "3 45 6 1 48 58 9 2 7 "
            "8 147 17 2 479 79 56 56 3"
        ),
        "r2c5<>1,6",
    ),
    # corpora/data/gen9-unfair.txt line 16, step 35 of the engine's path
    "uvwxyz_wing": (
        ".3.8...92..............271..2..54........62.479......6..9...84...61..9.....2....3",
        (
            "14 3 57 8 16 57 46 9 2 "
            "148 478 2 56 1679 1579 346 36 58 "
            "9 6 58 4 3 2 7 1 58 "
            "6 2 18 7 5 4 13 38 9 "
            "5 18 3 9 18 6 2 7 4 "
            "7 9 4 3 2 18 15 58 6 "
            "2 57 9 56 67 3 8 4 1 "
            "3 458 6 1 48 58 9 2 7 "
            "48 1478 178 2 479 789 56 56 3"
        ),
        "r2c2<>4",
    ),
    # corpora/data/gen9-hard.txt line 183, step 32 of the engine's path
    "unique_rectangle_2": (
        ".8..614..3..2.....1.6...37..4.7.8............6.3425......1728.989....2.........43",
        (
            "79 8 79 3 6 1 4 25 25 "
            "3 5 4 2 8 7 16 9 16 "
            "1 2 6 5 9 4 3 7 8 "
            "259 4 29 7 13 8 156 123 126 "
            "25 17 8 9 13 6 157 123 4 "
            "6 17 3 4 2 5 9 8 17 "
            "4 3 5 1 7 2 8 6 9 "
            "8 9 17 6 4 3 2 15 157 "
            "27 6 127 8 5 9 17 4 3"
        ),
        "r1c8<>2 r4c9<>2",
    ),
    # corpora/data/gen9-unfair.txt line 106, step 36 of the engine's path
    "unique_rectangle_3": (
        "8.36.29..2....1.3.......2...9..8....3.......7..7.6.4......3.54....2.5.8.47.9...6.",
        (
            "8 1 3 6 5 2 9 7 4 "
            "2 45 9 48 7 1 68 3 568 "
            "7 45 6 348 9 34 2 1 58 "
            "15 9 24 1345 8 7 16 25 36 "
            "3 6 48 145 2 49 18 59 7 "
            "15 28 7 135 6 39 4 259 38 "
            "9 28 28 7 3 6 5 4 1 "
            "6 3 1 2 4 5 7 8 9 "
            "4 7 5 9 1 8 3 6 2"
        ),
        "r5c4<>4",
    ),
    # corpora/data/gen9-hard.txt line 11, step 29 of the engine's path
    "unique_rectangle_4": (
        "....4..8...3..9.6.6.......9..5....4.....176....6....31...3...9.....8.1..589..4..2",
        (
            "79 579 27 6 4 1 257 8 3 "
            "18 1457 3 78 25 9 2457 6 57 "
            "6 457 2478 78 25 3 2457 1 9 "
            "18 17 5 2 3 6 9 4 78 "
            "39 39 48 45 1 7 6 2 58 "
            "247 247 6 45 9 8 57 3 1 "
            "24 246 1 3 7 5 8 9 46 "
            "347 3467 47 9 8 2 1 5 46 "
            "5 8 9 1 6 4 3 7 2"
        ),
        "r7c2<>4 r8c2<>4",
    ),
    # corpora/data/gen9-hard.txt line 114, step 36 of the engine's path
    "unique_loop": (
        ".......2...1.56....39.....5..5..82..2..1.4...9.6..74..8.....3.9.........4.2.8..6.",
        (
            "5 8 4 79 17 19 6 2 3 "
            "7 2 1 3 5 6 89 89 4 "
            "6 3 9 8 4 2 17 17 5 "
            "3 4 5 6 9 8 2 17 17 "
            "2 7 8 1 3 4 59 59 6 "
            "9 1 6 5 2 7 4 3 8 "
            "8 56 7 2 16 15 3 4 9 "
            "1 569 3 4 67 59 578 58 2 "
            "4 59 2 79 8 3 157 6 17"
        ),
        "r9c7<>1,7",
    ),
    "forcing_x_chain": X_CHAIN_CASE,  # the same grid: a forcing X-chain gives the same removal
    # gen9-unfair.se.txt (Sudoku Explainer: 5.7), step 38 of the engine's path
    "bug_type_2": (
        "2....874..357.6...1..54......8...91..........3..2...6..79........2..183.5........",
        (
            "2 9 6 13 13 8 7 4 5 "
            "4 3 5 7 29 6 12 8 19 "
            "1 8 7 5 4 29 3 29 6 "
            "7 2 8 4 6 5 9 1 3 "
            "9 6 4 18 18 3 5 7 2 "
            "3 5 1 2 79 79 4 6 8 "
            "8 7 9 36 23 24 126 5 14 "
            "6 4 2 9 5 1 8 3 7 "
            "5 1 3 68 78 247 26 29 49"
        ),
        "r7c5<>2 r7c6<>2 r9c7<>2 r9c8<>2",
    ),
    # gen9-unfair.se.txt (Sudoku Explainer: 6.7), step 31 of the engine's path: a Y-cycle
    "bidirectional_cycle": (
        ".....4.3..2.9....567........37........2...8...8.319.4....8.15...41....7.9..6.....",
        (
            "8 1 59 27 2567 4 79 3 69 "
            "3 2 4 9 678 678 17 168 5 "
            "6 7 59 1 3 58 4 289 29 "
            "14 3 7 24 2568 2568 19 1569 169 "
            "14 9 2 47 567 567 8 156 3 "
            "5 8 6 3 1 9 2 4 7 "
            "7 6 3 8 24 1 5 29 249 "
            "2 4 1 5 9 3 6 7 8 "
            "9 5 8 6 247 27 3 12 124"
        ),
        "r1c5<>7 r4c8<>1 r4c9<>1",
    ),
}

# A hidden quad is rare in real solve paths (in 9x9 it is the complement of a
# naked subset of five or more); this grid is made for it: 1-4 fit only in
# r1c1-r1c4, which also hold 5, 6 and 9.
HIDDEN_QUAD = " ".join(["12346", "123459", "12346", "123459"] + ["56789"] * 5 + ["123456789"] * 72)


# Turbot fishes moved ahead of the wings when they took Sukaku Explainer's ratings; the
# grouped strong links and the ALS wings came later still.
MOVED = (
    "skyscraper",
    "two_string_kite",
    "turbot_fish",
    "three_strong_links",
    "grouped_turbot_fish",
    "grouped_three_strong_links",
    "wxyz_wing",
    "vwxyz_wing",
    "uvwxyz_wing",
    "unique_rectangle_2",
    "unique_rectangle_3",
    "unique_rectangle_4",
    "unique_loop",
    "forcing_x_chain",
    "bug_type_2",
    "bidirectional_cycle",
)


def _first_step(pencilmarks: str, name: str = ""):
    # The cases come from paths taken before the direct techniques existed and before the
    # turbot fishes moved; those would come first on some of these grids.
    techniques = [t for t in GROUPS["classic"] if t not in MOVED or t == name]
    result = propagate(CandidateState.from_candidates(pencilmarks), techniques, max_steps=1)
    assert result.steps, f"no step found: {result.status}"
    return result.steps[0]


@pytest.mark.parametrize("name", list(CASES))
def test_technique_is_next_step_with_exact_eliminations(name):
    puzzle, pencilmarks, expected = CASES[name]
    step = _first_step(pencilmarks, name)
    assert step.technique == name
    assert compact(step) == expected


@pytest.mark.parametrize("name", list(CASES))
def test_technique_step_is_sound(name):
    puzzle, pencilmarks, _ = CASES[name]
    solution = solvers.get("dlx").solve(Grid.parse(puzzle), limit=2)
    assert solution.unique
    truth = solution.solution.cells
    step = _first_step(pencilmarks, name)
    state = CandidateState.from_candidates(pencilmarks)
    for cell, digit in step.eliminations:
        assert truth[cell] != digit
        assert state.candidates(cell) >> (digit - 1) & 1
    for cell, digit in step.placements:
        assert truth[cell] == digit


@pytest.mark.parametrize("name", list(CASES))
def test_finder_alone_finds_the_step(name):
    """The technique's own finder returns the same step as the engine."""
    _, pencilmarks, expected = CASES[name]
    step = BY_NAME[name].find(CandidateState.from_candidates(pencilmarks))
    assert step is not None
    assert compact(step) == expected


def test_hidden_quad():
    step = _first_step(HIDDEN_QUAD)
    assert step.technique == "hidden_quad"
    assert compact(step) == "r1c1<>6 r1c2<>5,9 r1c3<>6 r1c4<>5,9"
    assert step.digits == (1, 2, 3, 4)


FISH_SIZES = ("x_wing", "swordfish", "jellyfish")


def test_every_technique_has_a_case():
    covered = set(CASES) | {"hidden_quad", "full_house", "hidden_single", "naked_single"}
    # tests/solvers/human/test_human_se_patterns.py
    covered |= {"bug_type_3", "bug_type_4", "aligned_pair_exclusion", "aligned_triple_exclusion"}
    # tests/solvers/human/test_human_uniqueness_extra.py
    covered |= {"unique_rectangle_5", "unique_rectangle_6", "hidden_rectangle", "bug_plus_n"}
    covered |= {"avoidable_rectangle_1", "avoidable_rectangle_2"}
    # tests/solvers/human/test_human_extended_fish.py
    covered |= {f"{kind}_{size}" for kind in ("finned", "sashimi") for size in FISH_SIZES}
    covered |= {"multi_colouring", "medusa_3d"}
    # test_human_forcing.py, test_human_direct.py, test_human_als.py (beside this file)
    own_files = ("forcing", "direct", "als")
    assert covered == {t.name for t in TECHNIQUES if t.family not in own_files}


# -- singles -------------------------------------------------------------------
def test_full_house_takes_the_missing_digit():
    state = CandidateState.from_grid(Grid.parse("123. .... .... ...."))
    step = singles.full_house(state)
    assert step.placements == ((3, 4),)
    assert "Full house in row 1" in str(step)


def test_hidden_single_in_a_box_rates_1_2():
    # 1 is placed in row 2 and column 1, so in box 1 it fits only r1c2.
    state = CandidateState.from_grid(Grid.parse(".... ..1. .... 1..."))
    step = singles.hidden_single(state)
    assert step.placements == ((1, 1),)
    assert step.units == (8,)  # box 1
    assert step.rating == 1.2


def test_hidden_single_in_a_line_rates_1_5():
    # 1 fits only r1c1 in row 1, but three cells in box 1 and column 1.
    state = CandidateState.from_candidates(" ".join(["1234", "234", "234", "234"] + ["1234"] * 12))
    step = singles.hidden_single(state)
    assert step.placements == ((0, 1),)
    assert step.units == (0,)  # row 1
    assert step.rating == 1.5
    assert str(step) == "Hidden single: 1 has one place in row 1: r1c1 = 1"


def test_naked_single_when_the_cell_has_one_candidate():
    state = CandidateState.from_grid(Grid.parse("12.. ..3. .... ...."))
    # r1c3 sees 1, 2 (row 1) and 3 (box 2): only 4 is left.
    step = singles.naked_single(state)
    assert step.placements == ((2, 4),)
    assert step.rating == 2.3


def test_singles_choose_the_lowest_index_on_ties():
    state = CandidateState.from_grid(Grid.parse("12.. .... .... ...."))
    first = singles.hidden_single(state)
    again = singles.hidden_single(state.copy())
    assert first == again


# -- grouped strong links and ALS wings on hand-made grids ---------------------
# r1c1-r1c3 hold 1-4 between them: an almost locked set of three cells in row 1 and box 1.
ALS = {"r1c1": "12", "r1c2": "23", "r1c3": "34"}


def test_wxyz_wing_fires_on_a_restricted_digit():
    # r5c1 (14) sees r1c1, the only ALS cell with 1: r5c1 is 4 or the ALS holds 4 (in r1c3),
    # so the cells seeing both r5c1 and r1c3 lose 4.
    step = BY_NAME["wxyz_wing"].find(CandidateState.from_candidates(_grid({**ALS, "r5c1": "14"})))
    assert step is not None
    assert compact(step) == "r2c1<>4 r3c1<>4 r4c3<>4 r5c3<>4 r6c3<>4"
    assert step.rating == 5.5  # the largest ALS cell has two candidates


def test_wxyz_wing_needs_a_restricted_digit():
    # r5c5 (14) sees no ALS cell: neither 1 nor 4 links it to the set.
    state = CandidateState.from_candidates(_grid({**ALS, "r5c5": "14"}))
    assert BY_NAME["wxyz_wing"].find(state) is None


def _empty_rectangle(extra: dict[str, str]) -> str:
    # Digit 1: in box 1 only at r1c1, r1c2 (row 1) and r2c3 (column 3); in row 1 also at
    # r1c7; in column 7 only at r1c7 and r5c7.
    no1 = "23456789"
    marks = {f"r1c{c}": no1 for c in range(1, 10)}
    marks |= {f"r{r}c7": no1 for r in range(1, 10)}
    marks |= {f"r{r}c{c}": no1 for r in range(1, 4) for c in range(1, 4)}
    marks |= {cell: "123456789" for cell in ("r1c1", "r1c2", "r2c3", "r1c7", "r5c7")}
    return _grid(marks | extra)


def test_grouped_turbot_fish_fires_on_an_empty_rectangle():
    # Box 1: 1 is in {r1c1, r1c2} or in r2c3. If r2c3 is not 1, row 1's group is, so r1c7
    # is not and r5c7 is: r2c3 or r5c7 holds 1, and r5c3 sees both.
    step = BY_NAME["grouped_turbot_fish"].find(CandidateState.from_candidates(_empty_rectangle({})))
    assert step is not None
    assert compact(step) == "r5c3<>1"
    assert step.rating == 4.3


def test_hodokus_empty_rectangle_finds_the_same_elimination():
    from solvers.human.hodoku_finders import empty_rectangle

    step = empty_rectangle(CandidateState.from_candidates(_empty_rectangle({})))
    assert step is not None
    assert compact(step) == "r5c3<>1"
    assert step.cells[:2] == (6, 42)  # the conjugate pair r1c7 - r5c7, then the box's places
    assert step.cells[2:] == (0, 1, 11)
    shape_broken = CandidateState.from_candidates(_empty_rectangle({"r3c2": "123456789"}))
    assert empty_rectangle(shape_broken) is None


def test_grouped_turbot_fish_needs_the_rectangle_shape():
    # With 1 also in r3c2, box 1's places no longer lie in one row and one column.
    state = CandidateState.from_candidates(_empty_rectangle({"r3c2": "123456789"}))
    assert BY_NAME["grouped_turbot_fish"].find(state) is None


# -- unique rectangles, loops and forcing X-chains on hand-made grids ---------
FLOOR = {"r1c1": "12", "r2c1": "12"}  # with r1c4 and r2c4: rows 1-2, columns 1 and 4, boxes 1-2


def test_unique_rectangle_2_fires_on_one_shared_extra_digit():
    state = CandidateState.from_candidates(_grid({**FLOOR, "r1c4": "123", "r2c4": "123"}))
    step = BY_NAME["unique_rectangle_2"].find(state)
    assert step is not None
    # one of r1c4, r2c4 is 3: column 4 and box 2 lose it elsewhere
    assert {c for c, d in step.eliminations if d == 3} == {
        *(r * 9 + 3 for r in range(2, 9)),
        4,
        5,
        13,
        14,
        22,
        23,
    }


def test_unique_rectangle_2_needs_the_same_extra_digit():
    state = CandidateState.from_candidates(_grid({**FLOOR, "r1c4": "123", "r2c4": "124"}))
    assert BY_NAME["unique_rectangle_2"].find(state) is None


def _column4_without_1(extra: dict[str, str]) -> str:
    marks = {f"r{r}c4": "23456789" for r in range(3, 10)}
    return _grid(marks | {**FLOOR, "r1c4": "1256", "r2c4": "1278"} | extra)


def test_unique_rectangle_4_fires_when_a_is_locked_in_the_roof():
    state = CandidateState.from_candidates(_column4_without_1({}))
    step = BY_NAME["unique_rectangle_4"].find(state)
    assert step is not None
    assert compact(step) == "r1c4<>2 r2c4<>2"


def test_unique_rectangle_4_needs_a_locked_in_the_roof():
    state = CandidateState.from_candidates(_column4_without_1({"r5c4": "123456789"}))
    assert BY_NAME["unique_rectangle_4"].find(state) is None


def test_unique_rectangle_3_fires_on_a_naked_pair_with_the_roof():
    # The roof's extras are 3 and 4; r5c4 holds 34: the pair leaves the rest of column 4.
    marks = {**FLOOR, "r1c4": "123", "r2c4": "124", "r5c4": "34"}
    step = BY_NAME["unique_rectangle_3"].find(CandidateState.from_candidates(_grid(marks)))
    assert step is not None
    assert step.rating == 4.6
    assert {c for c, _ in step.eliminations} == {r * 9 + 3 for r in (2, 3, 5, 6, 7, 8)}


def test_unique_rectangle_3_needs_a_naked_subset():
    marks = {**FLOOR, "r1c4": "123", "r2c4": "124", "r5c4": "35"}
    assert BY_NAME["unique_rectangle_3"].find(CandidateState.from_candidates(_grid(marks))) is None


# r1c1-r1c4-r2c4-r2c7-r3c7-r3c1: two cells of the loop in every row, column and box it meets
LOOP = {cell: "12" for cell in ("r1c1", "r1c4", "r2c4", "r2c7", "r3c1")}


def test_unique_loop_fires_on_one_cell_with_extra_digits():
    state = CandidateState.from_candidates(_grid({**LOOP, "r3c7": "123"}))
    step = BY_NAME["unique_loop"].find(state)
    assert step is not None
    assert compact(step) == "r3c7<>1,2"
    assert step.rating == 4.6


def test_unique_loop_needs_a_single_way_out():
    marks = {**LOOP, "r3c7": "123", "r1c1": "124"}
    assert BY_NAME["unique_loop"].find(CandidateState.from_candidates(_grid(marks))) is None


def _two_column_links(extra: dict[str, str]) -> str:
    # Digit 1: column 1 only at r2c1 and r8c1, column 9 only at r3c9 and r8c9.
    no1 = "23456789"
    marks = {f"r{r}c{c}": no1 for r in range(1, 10) for c in (1, 9)}
    marks |= {cell: "123456789" for cell in ("r2c1", "r8c1", "r3c9", "r8c9")}
    return _grid(marks | extra)


def test_forcing_x_chain_fires_on_a_chain_of_one_digit():
    step = BY_NAME["forcing_x_chain"].find(CandidateState.from_candidates(_two_column_links({})))
    assert step is not None
    assert step.digits == (1,)
    # one of r2c1, r3c9 is 1 (r8c1 and r8c9 share row 8): the cells seeing both lose it
    assert step.eliminations[0][0] in (15, 16, 19, 20)  # r2c7, r2c8, r3c2, r3c3
    assert step.rating == 6.6


def test_forcing_x_chain_needs_strong_links_to_chain():
    state = CandidateState.from_candidates(_two_column_links({"r5c1": "123456789"}))
    assert BY_NAME["forcing_x_chain"].find(state) is None
