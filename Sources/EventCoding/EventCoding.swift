/// The JSON Lines coding of an OpScope event stream (recordings and the attach protocol).
public enum EventCoding {}
