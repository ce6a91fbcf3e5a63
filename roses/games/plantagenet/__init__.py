"""Plantagenet (GMT, Levy & Campaign IV): rules module for Roses (game id ``plantagenet``)."""
