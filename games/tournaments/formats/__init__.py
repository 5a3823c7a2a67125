"""Tournament formats as pure functions: who plays whom, and who stands where.

Nothing here knows Django, the database or the clock: a tournament's players are ids in their
seeding order, its past is a list of finished tables (``records.Table``), and every function
returns a value. The same input (and seed) always gives the same answer.

- ``records``: a finished table or bye, and the points a placing is worth.
- ``tables``: splitting a field into tables of a given size.
- ``swiss``: Swiss pairing for two players (a maximum-weight matching) and Swiss tables for
  three or four.
- ``roundrobin``: the circle method for two players, a covering schedule of tables for more.
- ``ladder``: challenges and the ladder's order.
- ``standings``: points and tie-breaks, and the crosstable.
"""
