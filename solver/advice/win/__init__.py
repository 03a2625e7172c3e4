"""Advice to win against other players: the exact sub-game, the approximation with
its interval, and the coach that chooses between them within a time budget."""
