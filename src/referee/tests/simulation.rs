//! Random-mover simulation and misbehaving clients, through the core.
