/// What became of one band of a frame.
enum BandOutcome { case painted, kept, copied }
