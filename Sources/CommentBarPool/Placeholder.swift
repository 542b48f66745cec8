public enum PoolPlaceholder {}
