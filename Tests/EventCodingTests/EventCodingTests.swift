import EventCoding
import Testing
