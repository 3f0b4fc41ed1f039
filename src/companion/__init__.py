"""Companion: a mahjong scoring companion for Singapore and Taiwanese tables."""

__version__ = "0.1.0"
