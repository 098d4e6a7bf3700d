// Function pointers and virtual functions in device code (PTX `call` through a register
// with a .callprototype): a class hierarchy with virtual methods whose objects are built on
// the device and used by a later kernel; a __device__ table of function pointers; a struct
// holding a function pointer, statically initialized (packed, nvcc writes it as a .u8 array
// of byte-masked addresses); a __device__ function pointer read by the host with
// cudaMemcpyFromSymbol and passed back as a kernel argument; function pointers taking and
// returning structs; a function pointer handed down to a __noinline__ function.
#include <cstdio>
#include <new>

#include <cuda_runtime.h>

#define CHECK(call)                                                                             \
    do {                                                                                        \
        cudaError_t err_ = (call);                                                              \
        if (err_ != cudaSuccess) {                                                              \
            printf("%s failed: %s\n", #call, cudaGetErrorName(err_));                           \
            return 1;                                                                           \
        }                                                                                       \
    } while (0)

// --- virtual functions -------------------------------------------------------------------

struct Shape {
    __device__ virtual ~Shape() {}
    __device__ virtual float area() const = 0;
    __device__ virtual int corners() const { return 0; }
    __device__ virtual const char* name() const { return "shape"; }
};

struct Square : Shape {
    float side;
    __device__ explicit Square(float s) : side(s) {}
    __device__ float area() const override { return side * side; }
    __device__ int corners() const override { return 4; }
    __device__ const char* name() const override { return "square"; }
};

struct Rectangle : Square {
    float height;
    __device__ Rectangle(float w, float h) : Square(w), height(h) {}
    __device__ float area() const override { return side * height; }
    __device__ const char* name() const override { return "rectangle"; }
};

struct Circle : Shape {
    float radius;
    __device__ explicit Circle(float r) : radius(r) {}
    __device__ float area() const override { return 3.14159265f * radius * radius; }
    // corners() and name() inherited from Shape
};

constexpr int kShapes = 6;
constexpr size_t kSlotBytes = 32;  // room for the largest object

// Builds one object per thread in `storage` (placement new): the vtable pointers are set on
// the device.
__global__ void build_shapes(unsigned char* storage, Shape** shapes) {
    int i = threadIdx.x;
    void* slot = storage + i * kSlotBytes;
    Shape* s;
    switch (i % 3) {
        case 0: s = new (slot) Square(1.5f + i); break;
        case 1: s = new (slot) Rectangle(2.0f + i, 0.5f * i); break;
        default: s = new (slot) Circle(0.25f * i); break;
    }
    shapes[i] = s;
}

// A later kernel calls the virtual methods of the objects the first one built.
__global__ void describe_shapes(Shape* const* shapes, float* areas, int* corners) {
    int i = threadIdx.x;
    areas[i] = shapes[i]->area();
    corners[i] = shapes[i]->corners();
    printf("shape %d: %s\n", i, shapes[i]->name());
}

__global__ void destroy_shapes(Shape** shapes) { shapes[threadIdx.x]->~Shape(); }

// Objects made with device new, used and deleted in one kernel.
__global__ void heap_shapes(float* total) {
    Shape* a = new Circle(2.0f);
    Shape* b = new Rectangle(3.0f, 4.0f);
    total[threadIdx.x] = a->area() + b->area() + b->corners();
    delete a;
    delete b;
}

// --- tables of function pointers ---------------------------------------------------------

typedef int (*IntOp)(int, int);

__device__ int add(int a, int b) { return a + b; }
__device__ int sub(int a, int b) { return a - b; }
__device__ int mul(int a, int b) { return a * b; }
__device__ int larger(int a, int b) { return a > b ? a : b; }

__device__ IntOp int_ops[4] = {add, sub, mul, larger};

struct NamedOp {
    int id;
    IntOp fn;
};
__device__ NamedOp named_ops[2] = {{7, mul}, {9, sub}};

// Packed, the pointer sits at offset 1: nvcc writes the initializer as a .u8 array whose
// bytes are masks of the address (0xFF(_Z3addii), 0xFF00(_Z3addii), ...).
struct __attribute__((packed)) PackedOp {
    char tag;
    IntOp fn;
};
__device__ PackedOp packed_ops[2] = {{'a', add}, {'m', mul}};

__device__ IntOp chosen_op = mul;  // read by the host

__global__ void apply_table(const int* a, const int* b, int* out) {
    int i = threadIdx.x;
    out[i] = int_ops[i % 4](a[i], b[i]);
}

__global__ void apply_named(int* out) {
    int i = threadIdx.x;
    const NamedOp& op = named_ops[i % 2];
    out[i] = op.id * 1000 + op.fn(i, 3);
}

__global__ void apply_packed(int* out) {
    int i = threadIdx.x;
    const PackedOp& op = packed_ops[i % 2];
    out[i] = op.tag * 1000 + op.fn(i, 5);
}

// The host hands back a device function pointer it read with cudaMemcpyFromSymbol.
__global__ void apply_from_host(IntOp op, int* out) {
    int i = threadIdx.x;
    out[i] = op(i, i + 1);
}

// Function pointers to functions taking and returning structs (passed as .param arrays).
struct Vec2 {
    float x, y;
};
typedef Vec2 (*VecOp)(Vec2, Vec2);
__device__ Vec2 vec_add(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
__device__ Vec2 vec_cross(Vec2 a, Vec2 b) { return {a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y}; }

__device__ __noinline__ Vec2 fold(VecOp op, const Vec2* v, int n) {
    Vec2 acc = v[0];
    for (int k = 1; k < n; ++k) acc = op(acc, v[k]);
    return acc;
}

__global__ void apply_vec_ops(const Vec2* v, Vec2* out) {
    int i = threadIdx.x;
    VecOp op = (i & 1) ? vec_cross : vec_add;
    out[i] = fold(op, v + i, 3);
}

// A recursive function called through a pointer.
typedef unsigned (*Recurse)(unsigned);
__device__ unsigned collatz_steps(unsigned n);
__device__ Recurse step_fn = collatz_steps;
__device__ unsigned collatz_steps(unsigned n) {
    if (n <= 1) return 0;
    return 1 + step_fn(n % 2 ? 3 * n + 1 : n / 2);
}
__global__ void collatz(unsigned* out) { out[threadIdx.x] = step_fn(threadIdx.x + 1); }

int main() {
    // collatz_steps recurses 111 levels deep (n = 27) through a pointer: more than the
    // default 1 KiB stack of an H100 thread holds (it faults with cudaErrorIllegalAddress).
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 16 * 1024));
    // Virtual functions.
    unsigned char* storage;
    Shape** shapes;
    float* areas;
    int* corners;
    CHECK(cudaMalloc(&storage, kShapes * kSlotBytes));
    CHECK(cudaMalloc(&shapes, kShapes * sizeof(Shape*)));
    CHECK(cudaMalloc(&areas, kShapes * sizeof(float)));
    CHECK(cudaMalloc(&corners, kShapes * sizeof(int)));
    build_shapes<<<1, kShapes>>>(storage, shapes);
    CHECK(cudaGetLastError());
    describe_shapes<<<1, kShapes>>>(shapes, areas, corners);
    CHECK(cudaDeviceSynchronize());
    float h_areas[kShapes];
    int h_corners[kShapes];
    CHECK(cudaMemcpy(h_areas, areas, sizeof(h_areas), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_corners, corners, sizeof(h_corners), cudaMemcpyDeviceToHost));
    for (int i = 0; i < kShapes; ++i) printf("area[%d] = %.6f, corners %d\n", i, h_areas[i], h_corners[i]);
    destroy_shapes<<<1, kShapes>>>(shapes);
    CHECK(cudaDeviceSynchronize());

    float* total;
    CHECK(cudaMalloc(&total, 4 * sizeof(float)));
    heap_shapes<<<1, 4>>>(total);
    CHECK(cudaDeviceSynchronize());
    float h_total[4];
    CHECK(cudaMemcpy(h_total, total, sizeof(h_total), cudaMemcpyDeviceToHost));
    printf("heap shapes: %.6f %.6f %.6f %.6f\n", h_total[0], h_total[1], h_total[2], h_total[3]);

    // Tables of function pointers.
    const int n = 8;
    int h_a[n], h_b[n], h_out[n];
    for (int i = 0; i < n; ++i) h_a[i] = 10 + 3 * i, h_b[i] = 7 - 2 * i;
    int *a, *b, *out;
    CHECK(cudaMalloc(&a, sizeof(h_a)));
    CHECK(cudaMalloc(&b, sizeof(h_b)));
    CHECK(cudaMalloc(&out, sizeof(h_out)));
    CHECK(cudaMemcpy(a, h_a, sizeof(h_a), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, h_b, sizeof(h_b), cudaMemcpyHostToDevice));
    apply_table<<<1, n>>>(a, b, out);
    CHECK(cudaMemcpy(h_out, out, sizeof(h_out), cudaMemcpyDeviceToHost));
    printf("table:");
    for (int i = 0; i < n; ++i) printf(" %d", h_out[i]);
    printf("\n");

    apply_named<<<1, n>>>(out);
    CHECK(cudaMemcpy(h_out, out, sizeof(h_out), cudaMemcpyDeviceToHost));
    printf("named:");
    for (int i = 0; i < n; ++i) printf(" %d", h_out[i]);
    printf("\n");

    apply_packed<<<1, n>>>(out);
    CHECK(cudaMemcpy(h_out, out, sizeof(h_out), cudaMemcpyDeviceToHost));
    printf("packed:");
    for (int i = 0; i < n; ++i) printf(" %d", h_out[i]);
    printf("\n");

    IntOp from_device = nullptr;
    CHECK(cudaMemcpyFromSymbol(&from_device, chosen_op, sizeof(from_device)));
    printf("device function pointer read by the host: %s\n", from_device != nullptr ? "non-null" : "null");
    apply_from_host<<<1, n>>>(from_device, out);
    CHECK(cudaMemcpy(h_out, out, sizeof(h_out), cudaMemcpyDeviceToHost));
    printf("from host:");
    for (int i = 0; i < n; ++i) printf(" %d", h_out[i]);
    printf("\n");

    // A pointer from a device table the host copied: the copied value is a device address.
    IntOp table_copy[4];
    CHECK(cudaMemcpyFromSymbol(table_copy, int_ops, sizeof(table_copy)));
    apply_from_host<<<1, n>>>(table_copy[3], out);
    CHECK(cudaMemcpy(h_out, out, sizeof(h_out), cudaMemcpyDeviceToHost));
    printf("int_ops[3] from host:");
    for (int i = 0; i < n; ++i) printf(" %d", h_out[i]);
    printf("\n");

    Vec2 h_v[n + 2], h_r[n];
    for (int i = 0; i < n + 2; ++i) h_v[i] = {0.5f * i, 1.0f - 0.25f * i};
    Vec2 *v, *r;
    CHECK(cudaMalloc(&v, sizeof(h_v)));
    CHECK(cudaMalloc(&r, sizeof(h_r)));
    CHECK(cudaMemcpy(v, h_v, sizeof(h_v), cudaMemcpyHostToDevice));
    apply_vec_ops<<<1, n>>>(v, r);
    CHECK(cudaMemcpy(h_r, r, sizeof(h_r), cudaMemcpyDeviceToHost));
    printf("vector ops:");
    for (int i = 0; i < n; ++i) printf(" (%.4f, %.4f)", h_r[i].x, h_r[i].y);
    printf("\n");

    unsigned* steps;
    CHECK(cudaMalloc(&steps, 32 * sizeof(unsigned)));
    collatz<<<1, 32>>>(steps);
    unsigned h_steps[32];
    CHECK(cudaMemcpy(h_steps, steps, sizeof(h_steps), cudaMemcpyDeviceToHost));
    printf("collatz steps:");
    for (int i = 0; i < 32; ++i) printf(" %u", h_steps[i]);
    printf("\n");
    CHECK(cudaDeviceSynchronize());
    printf("PASS\n");
    return 0;
}
