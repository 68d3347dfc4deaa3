// geometry.hpp - shapes and their areas.
#ifndef GEOMETRY_HPP
#define GEOMETRY_HPP

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace geo {

constexpr double kPi = 3.14159265358979323846;

/// A point in the plane.
struct Point {
    double x = 0;
    double y = 0;
};

/// Base class of every shape.
class Shape {
public:
    virtual ~Shape() = default;

    /// The area enclosed by the shape.
    virtual double area() const = 0;

    /// A human-readable name such as "circle".
    virtual std::string name() const = 0;

    /// Moves the shape by (dx, dy).
    void translate(double dx, double dy) {
        origin_.x += dx;
        origin_.y += dy;
    }

    const Point& origin() const { return origin_; }

protected:
    explicit Shape(Point origin) : origin_(origin) {}

    Point origin_;
};

/// A circle around its origin.
class Circle : public Shape {
public:
    Circle(Point center, double radius) : Shape(center), radius_(radius) {
        if (radius < 0) {
            radius_ = 0;
        }
    }

    double area() const override { return kPi * radius_ * radius_; }
    std::string name() const override { return "circle"; }

    /// Scales the radius by factor, which must be positive.
    void scale(double factor) {
        if (factor > 0) {
            radius_ *= factor;
        }
    }

    double radius() const { return radius_; }

private:
    double radius_;
};

/// An axis-aligned rectangle anchored at its lower-left corner.
class Rect : public Shape {
public:
    Rect(Point corner, double w, double h) : Shape(corner), w_(w), h_(h) {}

    double area() const override { return w_ * h_; }
    std::string name() const override { return "rect"; }

    /// Whether p lies inside or on the border.
    bool contains(const Point& p) const {
        return p.x >= origin_.x && p.x <= origin_.x + w_ &&
               p.y >= origin_.y && p.y <= origin_.y + h_;
    }

    Rect intersect(const Rect& other) const;

private:
    double w_;
    double h_;
};

/// Sums the areas of shapes.
template <typename It>
double totalArea(It first, It last) {
    double sum = 0;
    for (; first != last; ++first) {
        sum += (*first)->area();
    }
    return sum;
}

}  // namespace geo

/// Intersection of two rectangles; empty when they do not overlap.
inline geo::Rect geo::Rect::intersect(const Rect& other) const {
    double x1 = std::max(origin_.x, other.origin_.x);
    double y1 = std::max(origin_.y, other.origin_.y);
    double x2 = std::min(origin_.x + w_, other.origin_.x + other.w_);
    double y2 = std::min(origin_.y + h_, other.origin_.y + other.h_);
    return Rect({x1, y1}, std::max(0.0, x2 - x1), std::max(0.0, y2 - y1));
}

#endif  // GEOMETRY_HPP
