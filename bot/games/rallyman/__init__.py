"""Rallyman: DIRT (Jean-Christophe Bouvier): a rally time trial with dice."""
